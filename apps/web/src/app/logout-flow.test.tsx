import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken, setTokens } from '../lib/auth-tokens.ts';
import { takeReturnTo } from '../lib/return-to.ts';
import { envelope, mockFetch } from '../testing/fetch-mock.ts';
import type { MockRoute } from '../testing/fetch-mock.ts';
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
});
