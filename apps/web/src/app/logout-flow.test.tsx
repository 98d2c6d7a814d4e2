import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken, setTokens } from '../lib/auth-tokens.ts';
import { takeReturnTo } from '../lib/return-to.ts';
import { CURRENT_USER_KEY } from '../lib/current-user.ts';
import { envelope, errorEnvelope, mockFetch } from '../testing/fetch-mock.ts';
import type { MockAnswer, MockRoute } from '../testing/fetch-mock.ts';
import { renderRoutes } from '../testing/render.tsx';
import { routes } from './routes.tsx';

const me = { id: 'u1', nickname: '고래', email: null, profile_image_path: null };

/** Every request a private page and the home page make, answered as a logged-in server would. */
const serverRoutes: MockRoute[] = [
  { url: '/api/users', respond: () => ({ body: envelope(me) }) },
  { method: 'DELETE', url: '/api/auth/signup', respond: () => ({ body: envelope(null) }) },
  { url: /^\/api\/classes/, respond: () => ({ body: envelope([]) }) },
  { url: '/api/categories', respond: () => ({ body: [] }) },
];

beforeEach(() => {
  setTokens({ accessToken: 'a', refreshToken: 'r' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  takeReturnTo();
});

/**
 * Leaving a private page logged out: the router renders its navigations in a transition, so the tokens may
 * only go once the home page is on screen; otherwise the private page, still shown, sees a logged-out
 * visitor and its guard sends them to /login.
 */
describe('logging out from a private page', { timeout: 15_000 }, () => {
  it('withdrawal on /edit-info ends on the home page with the login link, not on /login', async () => {
    mockFetch(serverRoutes);
    const { router } = renderRoutes(routes, '/edit-info');
    await userEvent.click(await screen.findByRole('button', { name: '회원 탈퇴' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('alertdialog', { name: '탈퇴하시겠어요?' });
    await userEvent.click(within(dialog).getByRole('button', { name: '탈퇴하기' }));

    await waitFor(() => expect(getAccessToken()).toBeNull());
    await screen.findByRole('link', { name: '로그인' });
    // Settle: a late guard redirect would show up here.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('link', { name: '로그인' })).toBeInTheDocument();
    // No private page was remembered as the place to return to after a next login.
    expect(takeReturnTo()).toBe('/');
  });

  it('logout from the account menu of /mypage ends on the home page, not on /login', async () => {
    mockFetch(serverRoutes);
    const { router } = renderRoutes(routes, '/mypage');
    await userEvent.click(await screen.findByRole('button', { name: '로그아웃' }, { timeout: 5000 }));

    await waitFor(() => expect(getAccessToken()).toBeNull());
    await screen.findByRole('link', { name: '로그인' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(router.state.location.pathname).toBe('/');
    expect(takeReturnTo()).toBe('/');
  });

  // A user-info answer still on its way reads as the server refusing the session (go to /login) unless the
  // deliberate logout cancels it.
  it('logging out while the user info is on its way (then refused) still ends home', async () => {
    let answer: (value: MockAnswer) => void = () => undefined;
    const late = new Promise<MockAnswer>((resolve) => (answer = resolve));
    mockFetch([
      { url: '/api/users', respond: () => late },
      {
        method: 'POST',
        url: '/api/auth/refresh',
        respond: () => ({ status: 401, body: errorEnvelope(401, 'x') }),
      },
      ...serverRoutes.slice(1),
    ]);
    const { router } = renderRoutes(routes, '/mypage');
    await userEvent.click(await screen.findByRole('button', { name: '로그아웃' }, { timeout: 5000 }));
    await waitFor(() => expect(getAccessToken()).toBeNull());
    await screen.findByRole('link', { name: '로그인' });

    answer({ status: 401, body: errorEnvelope(401, 'Unauthorized') });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('link', { name: '로그인' })).toBeInTheDocument();
  });

  it('withdrawing while the user info is being fetched again (then refused) still ends home', async () => {
    let answer: (value: MockAnswer) => void = () => undefined;
    let calls = 0;
    const late = new Promise<MockAnswer>((resolve) => (answer = resolve));
    mockFetch([
      {
        url: '/api/users',
        respond: () => {
          calls += 1;
          return calls === 1 ? { body: envelope(me) } : late;
        },
      },
      {
        method: 'POST',
        url: '/api/auth/refresh',
        respond: () => ({ status: 401, body: errorEnvelope(401, 'x') }),
      },
      ...serverRoutes.slice(1),
    ]);
    const { router, queryClient } = renderRoutes(routes, '/edit-info');
    await userEvent.click(await screen.findByRole('button', { name: '회원 탈퇴' }, { timeout: 5000 }));
    void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    await waitFor(() => expect(calls).toBe(2));
    const dialog = await screen.findByRole('alertdialog', { name: '탈퇴하시겠어요?' });
    await userEvent.click(within(dialog).getByRole('button', { name: '탈퇴하기' }));
    await screen.findByRole('link', { name: '로그인' });

    answer({ status: 401, body: errorEnvelope(401, 'Unauthorized') });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(router.state.location.pathname).toBe('/');
    expect(getAccessToken()).toBeNull();
  });
});
