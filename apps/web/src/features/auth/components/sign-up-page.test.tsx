import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { USER_MESSAGES } from '@sea/contract/users';
import { getAccessToken } from '../../../lib/auth-tokens.ts';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import type { MockAnswer } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { SignUpPage } from './sign-up-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const TOKENS = { accessToken: 'acc', refreshToken: 'ref' };

function renderSignUp(
  answer: (request: Request, body: BodyInit | null) => MockAnswer | Promise<MockAnswer>,
  state: unknown = TOKENS,
) {
  const fetch = mockFetch([{ method: 'POST', url: '/api/auth/signup', respond: answer }]);
  const rendered = renderWithProviders(<SignUpPage />, {
    route: { pathname: '/sign-info', state },
    path: '/sign-info',
  });
  return { ...rendered, fetch };
}

describe('SignUpPage', () => {
  it('requires a nickname and shows the helper as an error', async () => {
    const { fetch } = renderSignUp(() => ({ body: envelope('success') }));
    await userEvent.click(await screen.findByRole('button', { name: '가입 완료' }));
    expect(await screen.findByText('닉네임을 입력해 주세요.')).toHaveClass(/error/);
    expect(screen.getByLabelText(/닉네임/)).toHaveAttribute('aria-invalid', 'true');
    expect(fetch.calls).toHaveLength(0);
  });

  it('sends nickname and a null e-mail with the callback token, stores the tokens and goes home', async () => {
    const parts: unknown[] = [];
    const { router } = renderSignUp(async (request, body) => {
      expect(request.headers.get('authorization')).toBe('Bearer acc');
      const form = body as FormData;
      parts.push(JSON.parse(await (form.get('signupRequestDto') as Blob).text()));
      return { body: envelope('success') };
    });
    await userEvent.type(await screen.findByLabelText(/닉네임/), '  바다거북  ');
    await userEvent.click(screen.getByRole('button', { name: '가입 완료' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(parts).toEqual([{ nickname: '바다거북', email: null }]);
    expect(getAccessToken()).toBe('acc');
    expect(screen.getByRole('status')).toHaveTextContent('회원가입이 완료되었어요.');
  });

  it('shows the server’s message when the nickname is taken, and stores nothing', async () => {
    renderSignUp(() => ({
      status: 409,
      body: errorEnvelope(409, 'Conflict', '이미 사용 중인 닉네임이에요.', {
        nickname: '이미 사용 중인 닉네임이에요.',
      }),
    }));
    await userEvent.type(await screen.findByLabelText(/닉네임/), '고래');
    await userEvent.click(screen.getByRole('button', { name: '가입 완료' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('이미 사용 중인 닉네임이에요.');
    expect(getAccessToken()).toBeNull();
  });

  it('counts the nickname in characters as the server does: 20 emoji fit, 21 do not', async () => {
    const parts: unknown[] = [];
    renderSignUp(async (_request, body) => {
      parts.push(JSON.parse(await ((body as FormData).get('signupRequestDto') as Blob).text()));
      return { body: envelope('success') };
    });
    const nickname = await screen.findByLabelText(/닉네임/);
    await userEvent.click(nickname);
    await userEvent.paste('🐳'.repeat(21));
    expect(screen.getByText('21/20')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '가입 완료' }));
    expect(await screen.findByText(USER_MESSAGES.nicknameLength)).toBeInTheDocument();
    await userEvent.type(nickname, '{Backspace}{Backspace}');
    expect(screen.getByText('20/20')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '가입 완료' }));
    await waitFor(() => expect(parts).toEqual([{ nickname: '🐳'.repeat(20), email: null }]));
  });

  it('says sign-up failed on another error answer', async () => {
    renderSignUp(() => ({ status: 500, body: errorEnvelope(500, 'Internal Server Error', '서버 오류') }));
    await userEvent.type(await screen.findByLabelText(/닉네임/), '고래');
    await userEvent.click(screen.getByRole('button', { name: '가입 완료' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('회원가입에 실패했어요. 다시 시도해 주세요.');
  });

  it('refuses a photo that is not a small JPEG or PNG', async () => {
    renderSignUp(() => ({ body: envelope('success') }));
    const input = (await screen.findByLabelText('프로필 사진')) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['gif'], 'a.gif', { type: 'image/gif' })] } });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '올바르지 않은 파일이에요. 5MB 이하의 .jpg/.jpeg 또는 .png 파일만 올릴 수 있어요.',
    );
    expect(screen.queryByRole('img', { name: '선택한 이미지 미리보기' })).not.toBeInTheDocument();
  });

  it('without tokens in navigation state, alerts and goes to /login', async () => {
    mockFetch([]);
    const { router } = renderWithProviders(<SignUpPage />, { route: '/sign-info', path: '/sign-info' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(screen.getByRole('alert')).toHaveTextContent('인증 토큰이 없어요. 다시 로그인해 주세요.');
  });
});
