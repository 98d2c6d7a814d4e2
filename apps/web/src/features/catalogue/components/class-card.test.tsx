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

  it('says on a live card how many watch and when the lecture started, in the local clock', () => {
    const started = '2026-11-25T05:05:00Z';
    const local = new Date(started);
    const clock = [local.getHours(), local.getMinutes()].map((n) => String(n).padStart(2, '0')).join(':');
    renderCard({ is_active: true, live_started_at: started, live_viewer_count: 12 });
    const card = screen.getByRole('article');
    expect(within(card).getByText(`시청 중 12명 · ${clock} 시작`)).toBeInTheDocument();
  });

  it('says what it knows of a live lecture, and nothing of it on a class that is not live', () => {
    const { unmount } = renderCard({ is_active: true, live_started_at: null, live_viewer_count: 0 });
    expect(screen.getByText('시청 중 0명')).toBeInTheDocument();
    unmount();
    // A list answered just as the lecture ended: the class is no longer live, the old facts say nothing.
    renderCard({ is_active: false, live_started_at: '2026-11-25T05:05:00Z', live_viewer_count: 3 });
    expect(screen.queryByText(/시청 중|시작$/)).not.toBeInTheDocument();
    expect(screen.queryByText('강사를 기다리는 중이에요')).not.toBeInTheDocument();
  });

  it('says a lecture waits for its teacher, without the LIVE badge, while its media server is lost', () => {
    renderCard({ is_active: false, live_waiting: true, live_started_at: null, live_viewer_count: null });
    const card = screen.getByRole('article');
    expect(within(card).getByText('강사를 기다리는 중이에요')).toBeInTheDocument();
    expect(within(card).queryByText('LIVE')).not.toBeInTheDocument();
  });

  it('leads elsewhere when told, keeping the edit link its own', () => {
    renderCard({}, { editHref: '/dashboard/edit/7' });
    expect(screen.getByRole('link', { name: '바다 수채화 강의 정보 수정' })).toHaveAttribute(
      'href',
      '/dashboard/edit/7',
    );
  });
});
