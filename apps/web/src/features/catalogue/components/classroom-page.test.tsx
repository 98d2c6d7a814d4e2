import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { envelope, errorEnvelope, listEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classItem } from '../test-classes.ts';
import { ClassroomPage } from './classroom-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ClassroomPage', () => {
  it('lists my enrolled classes, each leading to its student dashboard, with the menu and the count', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    mockFetch([
      {
        url: '/api/users',
        respond: () => ({
          body: envelope({ id: 'u', nickname: '게', email: null, profile_image_path: null }),
        }),
      },
      { url: '/api/categories', respond: () => ({ body: [{ id: 1, name: '디지털 드로잉' }] }) },
      {
        url: /^\/api\/classes\?page=\d+&target=enrolled$/,
        respond: (request) => ({
          body: listEnvelope(
            new URL(request.url).searchParams.get('page') === '0'
              ? [classItem(5, { is_active: true, live_viewer_count: 9 }), classItem(3)]
              : [],
            2,
          ),
        }),
      },
    ]);
    renderWithProviders(<ClassroomPage />, { route: '/classroom', path: '/classroom' });
    expect(screen.getByRole('heading', { level: 1, name: '수강 중인 강의' })).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: '내가 수강 중인 강의' });
    expect(within(grid).getByRole('link', { name: /강의 5/ })).toHaveAttribute(
      'href',
      '/dashboard/student/5',
    );
    // A class of mine that is live says how many watch it now.
    const cards = within(grid).getAllByRole('article');
    expect(cards[0]).toHaveTextContent('시청 중 9명');
    expect(cards[1]).not.toHaveTextContent('시청 중');
    await waitFor(() => expect(screen.getByText('2개')).toBeInTheDocument());
    const menu = screen.getByRole('navigation', { name: '내 강의실 메뉴' });
    expect(within(menu).getByRole('link', { name: '내가 개설한 강의' })).toHaveAttribute('href', '/mypage');
    expect(within(menu).getByRole('link', { name: '내가 수강 중인 강의' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(menu).getByRole('button', { name: '로그아웃' })).toBeInTheDocument();
  });

  it('a new student’s empty classroom offers the way to browse classes', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    mockFetch([
      {
        url: '/api/users',
        respond: () => ({
          body: envelope({ id: 'u', nickname: '게', email: null, profile_image_path: null }),
        }),
      },
      { url: '/api/categories', respond: () => ({ body: [] }) },
      { url: /^\/api\/classes\?/, respond: () => ({ body: listEnvelope([], 0) }) },
    ]);
    renderWithProviders(<ClassroomPage />, { route: '/classroom', path: '/classroom' });
    expect(await screen.findByText(/아직 수강 중인 강의가 없어요/)).toBeInTheDocument();
    expect(screen.getByText('0개')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '강의 둘러보기' })).toHaveAttribute('href', '/list');
  });

  it('a list that failed to load says so with 다시 시도, never that there are no classes', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    let reachable = false;
    mockFetch([
      {
        url: '/api/users',
        respond: () => ({
          body: envelope({ id: 'u', nickname: '게', email: null, profile_image_path: null }),
        }),
      },
      { url: '/api/categories', respond: () => ({ body: [] }) },
      {
        url: /^\/api\/classes\?/,
        respond: (request) =>
          reachable
            ? {
                body: listEnvelope(
                  new URL(request.url).searchParams.get('page') === '0' ? [classItem(9)] : [],
                  1,
                ),
              }
            : { status: 502, body: errorEnvelope(502, 'bad-gateway') },
      },
    ]);
    renderWithProviders(<ClassroomPage />, { route: '/classroom', path: '/classroom' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('강의 목록을 불러오지 못했어요.');
    expect(screen.queryByText(/아직 수강 중인 강의가 없어요/)).not.toBeInTheDocument();
    reachable = true;
    await userEvent.click(within(alert).getByRole('button', { name: '다시 시도' }));
    const grid = await screen.findByRole('list', { name: '내가 수강 중인 강의' });
    expect(within(grid).getByRole('link', { name: /강의 9/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
