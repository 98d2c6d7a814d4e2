import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken, getRefreshToken } from '../../../lib/auth-tokens.ts';
import { rememberReturnTo } from '../../../lib/return-to.ts';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { createLoginState } from '../login-state.ts';
import { CallbackPage } from './callback-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

let codeCounter = 0;

function renderCallback(options: { registered: number; exchange?: number }) {
  codeCounter += 1;
  const code = `code-${codeCounter}`;
  const state = createLoginState();
  const fetch = mockFetch([
    {
      url: `/api/auth/kakao/callback?code=${code}`,
      respond: () =>
        options.exchange && options.exchange !== 200
          ? { status: options.exchange, body: errorEnvelope(options.exchange, 'Unauthorized') }
          : { body: { accessToken: `access-${code}`, refreshToken: `refresh-${code}` } },
    },
    {
      // The status form of the check: 200 either way, so no failed request is logged for a new user.
      url: '/api/auth/signup?answer=status',
      respond: (request) => {
        expect(request.headers.get('authorization')).toBe(`Bearer access-${code}`);
        if (options.registered === 200 || options.registered === 404)
          return { body: envelope({ registered: options.registered === 200 }) };
        return { status: options.registered, body: errorEnvelope(options.registered, 'Server Error') };
      },
    },
  ]);
  const rendered = renderWithProviders(<CallbackPage />, {
    route: `/oauth/kakao/callback?code=${code}&state=${state}`,
    path: '/oauth/kakao/callback',
  });
  return { ...rendered, code, fetch };
}

describe('CallbackPage', () => {
  it('shows the moving message, then stores the tokens of a registered user and goes home', async () => {
    const { router, code } = renderCallback({ registered: 200 });
    expect(screen.getByText('바다학원으로 이동 중이에요...')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getAccessToken()).toBe(`access-${code}`);
    expect(getRefreshToken()).toBe(`refresh-${code}`);
  });

  it('returns to the private page the visitor wanted', async () => {
    rememberReturnTo('/mypage');
    const { router } = renderCallback({ registered: 200 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/mypage'));
  });

  it('sends an unregistered user to /sign-info with both tokens in navigation state, storing nothing', async () => {
    const { router, code } = renderCallback({ registered: 404 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-info'));
    expect(router.state.location.state).toEqual({
      accessToken: `access-${code}`,
      refreshToken: `refresh-${code}`,
    });
    expect(getAccessToken()).toBeNull();
  });

  it('goes to /login when the user check fails otherwise', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { router } = renderCallback({ registered: 500 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getAccessToken()).toBeNull();
    error.mockRestore();
  });

  it('goes to /login when the code is rejected', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { router } = renderCallback({ registered: 200, exchange: 401 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    error.mockRestore();
  });

  it('goes to /login without a code', async () => {
    mockFetch([]);
    const { router } = renderWithProviders(<CallbackPage />, {
      route: '/oauth/kakao/callback',
      path: '/oauth/kakao/callback',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('refuses a state this tab did not send, without spending the code', async () => {
    createLoginState();
    const { calls } = mockFetch([]);
    const { router } = renderWithProviders(<CallbackPage />, {
      route: '/oauth/kakao/callback?code=stolen&state=forged',
      path: '/oauth/kakao/callback',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(screen.getByRole('alert')).toHaveTextContent('로그인 요청을 확인할 수 없어요.');
    expect(calls).toHaveLength(0);
  });
});
