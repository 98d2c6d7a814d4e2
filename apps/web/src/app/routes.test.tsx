import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setTokens } from '../lib/auth-tokens.ts';
import { takeReturnTo } from '../lib/return-to.ts';
import { envelope, mockFetch } from '../testing/fetch-mock.ts';
import { renderRoutes } from '../testing/render.tsx';
import { routes } from './routes.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('app routes', () => {
  it('shows the 404 page for an unknown path, and its button goes home', async () => {
    mockFetch([]);
    const { router } = renderRoutes(routes, '/no/such/page');
    expect(
      await screen.findByRole('heading', { name: '이런! 페이지를 찾을 수 없어요.' }),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '메인으로 돌아가기' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it.each(['/lecture/info/abc', '/lecture/info/0', '/lecture/info/2147483648'])(
    'shows the 404 page for %s (no class can have that id) without asking the server',
    async (address) => {
      const { calls } = mockFetch([]);
      renderRoutes(routes, address);
      expect(
        await screen.findByRole('heading', { name: '이런! 페이지를 찾을 수 없어요.' }, { timeout: 5000 }),
      ).toBeInTheDocument();
      await waitFor(() => expect(document.title).toBe('페이지를 찾을 수 없어요 · 바다학원'));
      expect(calls.filter((request) => request.url.includes('/api/classes/'))).toEqual([]);
    },
  );

  it('shows the 404 page inside the frame for a private page whose class id cannot exist', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const { calls } = mockFetch([
      {
        url: '/api/users',
        respond: () => ({
          body: envelope({ id: 'u1', nickname: '고래', email: null, profile_image_path: null }),
        }),
      },
    ]);
    renderRoutes(routes, '/live/student/abc');
    expect(
      await screen.findByRole('heading', { name: '이런! 페이지를 찾을 수 없어요.' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    // The frame stays: the header is there.
    expect(screen.getByRole('banner')).toBeInTheDocument();
    // The header asks who is logged in (under load, after the 404 page shows); its other requests (the notices)
    // may come or not; nothing asks about the impossible class.
    const paths = () => calls.map((request) => new URL(request.url).pathname);
    await waitFor(() => expect(paths()).toContain('/api/users'));
    expect(paths().filter((path) => /\/(classes|live|sessions)\b/.test(path))).toEqual([]);
  });

  it('sends a logged-out visitor of a private page to /login and remembers the page', async () => {
    mockFetch([]);
    const { router } = renderRoutes(routes, '/dashboard/teacher/5?tab=info');
    // The page module loads first (lazily, transformed on first use here), then the guard redirects.
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    expect(takeReturnTo()).toBe('/dashboard/teacher/5?tab=info');
  });

  it('lets a logged-in visitor open a private page', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    mockFetch([
      {
        url: '/api/users',
        respond: () => ({
          body: envelope({ id: 'u1', nickname: '고래', email: null, profile_image_path: null }),
        }),
      },
    ]);
    const { router } = renderRoutes(routes, '/edit-info');
    await waitFor(() => expect(router.state.initialized).toBe(true), { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.pathname).toBe('/edit-info');
  });

  it('scrolls to the top on every route change', async () => {
    mockFetch([]);
    const { router } = renderRoutes(routes, '/no-page-a');
    await screen.findByRole('heading', { name: '이런! 페이지를 찾을 수 없어요.' });
    vi.mocked(window.scrollTo).mockClear();
    await router.navigate('/no-page-b');
    await waitFor(() => expect(window.scrollTo).toHaveBeenCalledWith(0, 0));
  });

  it('uses the dark theme on the spec’s dark pages only', async () => {
    mockFetch([]);
    const { router } = renderRoutes(routes, '/no-page');
    await screen.findByRole('heading', { name: '이런! 페이지를 찾을 수 없어요.' });
    expect(document.documentElement.dataset.theme).toBe('light');
    await router.navigate('/live-list');
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
  });

  it('names every page in the browser tab in Korean, and follows navigation', async () => {
    mockFetch([{ url: '/api/classes', respond: () => ({ body: envelope([]) }) }]);
    const { router } = renderRoutes(routes, '/list');
    await waitFor(() => expect(document.title).toBe('전체 강의 · 바다학원'), { timeout: 5000 });
    await router.navigate('/lecture/info/3');
    await waitFor(() => expect(document.title).toBe('강의 소개 · 바다학원'));
    await router.navigate('/no/such/page');
    await waitFor(() => expect(document.title).toBe('페이지를 찾을 수 없어요 · 바다학원'));
    await router.navigate('/');
    await waitFor(() => expect(document.title).toBe('바다학원'));
    // A logged-out visitor of a private page is named by where the guard sends them.
    await router.navigate('/mypage');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    await waitFor(() => expect(document.title).toBe('로그인 · 바다학원'));
  });

  it('gives every route of the table a title, the id-less variants the same as their pages', () => {
    const titles = new Map<string, unknown>();
    const walk = (table: typeof routes) => {
      for (const route of table) {
        if (route.path !== undefined) titles.set(route.path, route.handle);
        if (route.children) walk(route.children);
      }
    };
    walk(routes);
    expect(titles.get('/')).toBeUndefined();
    for (const [path, handle] of titles) {
      if (path === '/') continue;
      expect(handle, path).toEqual({ title: expect.stringMatching(/^[가-힣 ()]+$/) });
    }
    expect(titles.get('/enrollment')).toEqual(titles.get('/enrollment/:classId'));
    expect(titles.get('/lecture/created')).toEqual(titles.get('/lecture/created/:classId'));
    expect(titles.get('/live/teacher/:classId')).toEqual({ title: '라이브 강의실(강사)' });
    expect(titles.get('/mypage')).toEqual({ title: '내가 개설한 강의' });
  });
});
