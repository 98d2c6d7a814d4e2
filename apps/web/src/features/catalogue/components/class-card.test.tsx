import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classItem } from '../test-classes.ts';
import { ClassCard } from './class-card.tsx';

// 09:00 in Seoul on 25 November 2026; the class's session at 20:00 Seoul is 11:00 UTC.
const NOW = new Date('2026-11-25T09:00:00+09:00');

function renderCard(overrides: Parameters<typeof classItem>[1] = {}, props: { editHref?: string } = {}) {
  const item = classItem(7, {
    name: '바다 수채화',
    instructor: '문어선생',
    user_id: 'teacher-7',
    ...overrides,
  });
  return renderWithProviders(
    <ul>
      <li>
        <ClassCard item={item} now={NOW} {...props} />
      </li>
    </ul>,
  );
}

describe('ClassCard', () => {
  it('is two separate links: the class by its name, and the teacher to their page', () => {
    renderCard();
    const card = screen.getByRole('article');
    const links = within(card).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['바다 수채화', '/lecture/info/7'],
      ['문어선생 강사', '/instructor/teacher-7'],
    ]);
    for (const link of links) expect(link.querySelector('a')).toBeNull();
    expect(within(card).getByRole('heading', { level: 3, name: '바다 수채화' })).toBeInTheDocument();
  });

  it('takes keyboard focus on the class first, then the teacher', async () => {
    renderCard();
    await userEvent.tab();
    expect(screen.getByRole('link', { name: '바다 수채화' })).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole('link', { name: '문어선생 강사' })).toHaveFocus();
  });

  it("says when a class goes live later today (Seoul's day)", () => {
    renderCard({ next_session_at: '2026-11-25T11:00:00Z' });
    expect(within(screen.getByRole('article')).getByText('오늘 20:00 라이브')).toBeInTheDocument();
  });

  it('says nothing of a session tomorrow', () => {
    renderCard({ next_session_at: '2026-11-26T11:00:00Z' });
    expect(screen.queryByText(/라이브$/)).not.toBeInTheDocument();
  });

  it('keeps only the LIVE mark while the class is live', () => {
    renderCard({ next_session_at: '2026-11-25T11:00:00Z', is_active: true });
    expect(screen.getByText('LIVE')).toBeInTheDocument();
    expect(screen.queryByText('오늘 20:00 라이브')).not.toBeInTheDocument();
  });

  it('leads elsewhere when told, keeping the edit link its own', () => {
    renderCard({}, { editHref: '/dashboard/edit/7' });
    expect(screen.getByRole('link', { name: '바다 수채화 강의 정보 수정' })).toHaveAttribute(
      'href',
      '/dashboard/edit/7',
    );
  });
});
