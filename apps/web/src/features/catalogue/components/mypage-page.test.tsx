import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { envelope, errorEnvelope, listEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import type { MockAnswer } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classItem } from '../test-classes.ts';
import { MypagePage } from './mypage-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const ME = { id: 'u', nickname: '문어', email: null, profile_image_path: null };

function renderMypage(
  deleteStatus: number,
  user: () => MockAnswer | Promise<MockAnswer> = () => ({ body: envelope(ME) }),
) {
  setTokens({ accessToken: 'a', refreshToken: 'r' });
  const mine = [classItem(9, { student_count: 4 }), classItem(8, { student_count: 0 })];
  const fetch = mockFetch([
    { url: '/api/users', respond: user },
    {
      url: /^\/api\/classes\?page=\d+&target=created$/,
      respond: (request) => ({
        // The server counts 15 though only the first page (two here) has loaded.
        body: listEnvelope(new URL(request.url).searchParams.get('page') === '0' ? mine : [], 15),
      }),
    },
    {
      method: 'DELETE',
      url: '/api/classes/9/delete',
      respond: () =>
        deleteStatus === 200
          ? { body: envelope('success') }
          : { status: deleteStatus, body: errorEnvelope(deleteStatus, 'Role Error') },
    },
  ]);
  return { ...renderWithProviders(<MypagePage />, { route: '/mypage', path: '/mypage' }), fetch };
}

describe('MypagePage', () => {
  it('shows my classes with count, student counts, edit links and teacher-dashboard links', async () => {
    renderMypage(200);
    expect(await screen.findByRole('heading', { name: '문어님의 강의 관리' })).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: '내가 개설한 강의' });
    expect(within(grid).getAllByRole('listitem')).toHaveLength(2);
    // The exact total from the server's answer, not the cards loaded so far nor 'N개 이상'.
    await waitFor(() => expect(screen.getByText('15개')).toBeInTheDocument());
    expect(screen.queryByText(/이상/)).not.toBeInTheDocument();
    expect(within(grid).getByText('수강생 4명')).toBeInTheDocument();
    expect(within(grid).getByRole('link', { name: '강의 9' })).toHaveAttribute(
      'href',
      '/dashboard/teacher/9',
    );
    expect(within(grid).getByRole('link', { name: '강의 9 강의 정보 수정' })).toHaveAttribute(
      'href',
      '/dashboard/edit/9',
    );
    expect(screen.getByRole('link', { name: '강의 개설하기' })).toHaveAttribute('href', '/lecture/open');
    expect(screen.getByRole('link', { name: '프로필 수정' })).toHaveAttribute('href', '/edit-info');
  });

  it('deletes a class after the confirmation and removes its card', async () => {
    const { fetch } = renderMypage(200);
    await userEvent.click(await screen.findByRole('button', { name: '강의 9 강의 삭제' }));
    const dialog = screen.getByRole('alertdialog', { name: '강의를 삭제하시겠어요?' });
    expect(dialog).toHaveTextContent('삭제한 강의는 복구할 수 없어요. 그래도 삭제하시겠어요?');
    expect(within(dialog).getByRole('button', { name: '취소' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: '강의 삭제' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByRole('status')).toHaveTextContent('강의를 삭제했어요.');
    const grid = screen.getByRole('list', { name: '내가 개설한 강의' });
    expect(within(grid).getAllByRole('listitem')).toHaveLength(1);
    expect(within(grid).queryByText('강의 9')).not.toBeInTheDocument();
    expect(screen.getByText('14개')).toBeInTheDocument();
    expect(fetch.calls.some((call) => call.method === 'DELETE')).toBe(true);
  });

  it('keeps the card and says so when the delete fails; the confirmation still closes', async () => {
    renderMypage(418);
    await userEvent.click(await screen.findByRole('button', { name: '강의 9 강의 삭제' }));
    await userEvent.click(screen.getByRole('button', { name: '강의 삭제' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '강의를 삭제하지 못했어요. 다시 시도해 주세요.',
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(
      within(screen.getByRole('list', { name: '내가 개설한 강의' })).getAllByRole('listitem'),
    ).toHaveLength(2);
  });

  it('cancelling sends nothing', async () => {
    const { fetch } = renderMypage(200);
    await userEvent.click(await screen.findByRole('button', { name: '강의 9 강의 삭제' }));
    await userEvent.click(screen.getByRole('button', { name: '취소' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(fetch.calls.some((call) => call.method === 'DELETE')).toBe(false);
  });

  it('shows a placeholder heading, not a nameless one, while the user info loads', async () => {
    let answer: (value: MockAnswer) => void = () => undefined;
    const held = new Promise<MockAnswer>((resolve) => (answer = resolve));
    renderMypage(200, () => held);
    await screen.findByRole('list', { name: '내가 개설한 강의' });
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading).toHaveAttribute('aria-busy', 'true');
    expect(heading).toHaveTextContent('내 정보를 불러오는 중이에요...');
    expect(screen.queryByText(/님의 강의 관리/)).not.toBeInTheDocument();

    answer({ body: envelope(ME) });
    expect(await screen.findByRole('heading', { name: '문어님의 강의 관리' })).not.toHaveAttribute(
      'aria-busy',
    );
  });

  it('falls back to a heading without the nickname when the user info fails', async () => {
    renderMypage(200, () => ({ status: 500, body: errorEnvelope(500, 'Internal Server Error') }));
    expect(await screen.findByRole('heading', { name: '내 강의 관리' })).toBeInTheDocument();
    expect(screen.queryByText(/님의 강의 관리/)).not.toBeInTheDocument();
  });

  it('a teacher’s empty page offers to open a first class', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    mockFetch([
      { url: '/api/users', respond: () => ({ body: envelope(ME) }) },
      { url: /^\/api\/classes\?/, respond: () => ({ body: listEnvelope([], 0) }) },
    ]);
    renderWithProviders(<MypagePage />, { route: '/mypage', path: '/mypage' });
    const message = await screen.findByText(/아직 개설한 강의가 없어요/);
    const links = screen.getAllByRole('link', { name: '강의 개설하기' });
    // The toolbar's and the empty state's own, right under its message.
    expect(links).toHaveLength(2);
    expect(message.parentElement).toContainElement(links[1] as HTMLElement);
    expect(links[1]).toHaveAttribute('href', '/lecture/open');
  });
});
