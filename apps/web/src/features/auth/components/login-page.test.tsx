import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { redirectTo } from '../browser-redirect.ts';
import { LoginPage } from './login-page.tsx';

vi.mock('../browser-redirect.ts', () => ({ redirectTo: vi.fn() }));

beforeEach(() => {
  vi.mocked(redirectTo).mockClear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.Kakao;
});

describe('LoginPage', () => {
  it('keeps the Kakao button disabled while the app key cannot be fetched', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch([{ url: '/api/auth/kakao/app-key', respond: () => ({ status: 500, body: {} }) }]);
    renderWithProviders(<LoginPage />, { route: '/login' });
    expect(screen.getByRole('heading', { name: '로그인' })).toBeInTheDocument();
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(screen.getByRole('button', { name: /카카오로 로그인/ })).toBeDisabled();
    error.mockRestore();
  });

  it('with the dev provider, sends the browser to the dev authorize page with a state it remembers', async () => {
    mockFetch([
      { url: '/api/auth/kakao/app-key', respond: () => ({ body: { appKey: '', provider: 'dev' } }) },
    ]);
    renderWithProviders(<LoginPage />, { route: '/login' });
    const button = screen.getByRole('button', { name: /카카오로 로그인/ });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    expect(redirectTo).toHaveBeenCalledOnce();
    const target = new URL(String(vi.mocked(redirectTo).mock.calls[0]?.[0]), 'http://localhost');
    expect(target.pathname).toBe('/api/auth/dev/authorize');
    expect(target.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/oauth/kakao/callback`);
    expect(target.searchParams.get('state')).toMatch(/^[0-9a-f]{32}$/);
    expect(sessionStorage.getItem('sea.loginState')).toBe(target.searchParams.get('state'));
  });

  it('with Kakao, enables the button once the SDK is initialised and authorizes with a state', async () => {
    const authorize = vi.fn();
    let initialised = false;
    window.Kakao = {
      init: vi.fn(() => {
        initialised = true;
      }),
      isInitialized: () => initialised,
      Auth: { authorize },
    };
    mockFetch([
      { url: '/api/auth/kakao/app-key', respond: () => ({ body: { appKey: 'js-key', provider: 'kakao' } }) },
    ]);
    renderWithProviders(<LoginPage />, { route: '/login' });
    const button = screen.getByRole('button', { name: '카카오로 로그인' });
    await waitFor(() => expect(button).toBeEnabled());
    // Kakao's own speech-bubble symbol (an SVG path in black), decorative beside the label.
    const symbol = button.querySelector('svg[data-symbol="kakao"]');
    expect(symbol).toHaveAttribute('aria-hidden', 'true');
    expect(symbol?.querySelector('path')).toHaveAttribute('fill', '#000');
    expect(button.textContent).toBe('카카오로 로그인');
    expect(window.Kakao.init).toHaveBeenCalledWith('js-key');
    await userEvent.click(button);
    expect(authorize).toHaveBeenCalledWith({
      redirectUri: `${window.location.origin}/oauth/kakao/callback`,
      state: sessionStorage.getItem('sea.loginState'),
    });
    expect(redirectTo).not.toHaveBeenCalled();
  });

  it('says the other way is unsupported, and notes an existing login', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    mockFetch([
      { url: '/api/auth/kakao/app-key', respond: () => ({ body: { appKey: '', provider: 'dev' } }) },
    ]);
    renderWithProviders(<LoginPage />, { route: '/login' });
    expect(screen.getByRole('note')).toHaveTextContent('이미 로그인되어 있어요.');
    await userEvent.click(screen.getByRole('button', { name: '다른 방법으로 로그인' }));
    expect(await screen.findByRole('status')).toHaveTextContent('카카오 로그인을 이용해 주세요.');
  });
});
