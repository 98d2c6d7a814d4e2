import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getAccessToken, getRefreshToken, setTokens } from '../../lib/auth-tokens.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { AccountMenu } from './account-menu.tsx';

describe('AccountMenu', () => {
  it('logs out: both tokens removed, a notice, and home', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const { router } = renderWithProviders(<AccountMenu />, { route: '/mypage', path: '/mypage' });
    expect(screen.getByRole('link', { name: '내가 개설한 강의' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(screen.getByRole('button', { name: '로그아웃' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('로그아웃했어요.');
  });
});
