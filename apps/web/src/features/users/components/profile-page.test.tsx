import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { USER_MESSAGES } from '@sea/contract/users';
import type { User } from '@sea/contract/users';
import { getAccessToken, getRefreshToken, setTokens } from '../../../lib/auth-tokens.ts';
import { avatarFor } from '../../../lib/default-images.ts';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import type { MockRoute } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { ProfilePage } from './profile-page.tsx';

const me: User = {
  id: 'u1',
  nickname: '고래',
  email: 'whale@example.com',
  profile_image_path: null,
  introduction: null,
};
const currentUser = (user: User = me): MockRoute => ({
  url: '/api/users',
  respond: () => ({ body: envelope(user) }),
});

beforeEach(() => {
  setTokens({ accessToken: 'a', refreshToken: 'r' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderProfile() {
  return renderWithProviders(<ProfilePage />, {
    route: '/edit-info',
    path: '/edit-info',
    routes: [{ path: '/', element: <p>홈 화면</p> }],
  });
}

/** The JSON part of the PATCH the page handed to fetch. */
async function sentProfile(spy: ReturnType<typeof mockFetch>['spy']): Promise<unknown> {
  const call = spy.mock.calls.find(([, init]) => init?.method === 'PATCH');
  const form = call?.[1]?.body;
  if (!(form instanceof FormData)) throw new Error('no multipart PATCH');
  const part = form.get('userUpdateDTO');
  if (!(part instanceof Blob)) throw new Error('no userUpdateDTO part');
  expect(part.type).toBe('application/json');
  return JSON.parse(await part.text()) as unknown;
}

describe('profile settings', { timeout: 15_000 }, () => {
  it('shows the breadcrumb, side menu, photo notes and the user’s values', async () => {
    mockFetch([currentUser()]);
    renderProfile();
    expect(screen.getByRole('heading', { level: 1, name: '프로필 설정' })).toBeInTheDocument();
    const nickname = await screen.findByLabelText(/닉네임/);
    expect(nickname).toHaveValue('고래');
    expect(screen.getByText('닉네임', { selector: 'label' })).toHaveTextContent('(필수)');
    const email = screen.getByLabelText('이메일');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveValue('whale@example.com');
    expect(screen.getByRole('navigation', { name: '현재 위치' })).toHaveTextContent('홈내 강의실프로필 설정');
    expect(screen.getByRole('navigation', { name: '내 강의실 메뉴' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: '선택한 이미지 미리보기' })).toHaveAttribute(
      'src',
      avatarFor('고래'),
    );
    expect(screen.getByRole('button', { name: '사진 변경' })).toBeInTheDocument();
    // Nothing to delete: the default avatar shows.
    expect(screen.queryByRole('button', { name: '삭제' })).not.toBeInTheDocument();
    for (const note of ['100×100', '5MB', 'jpg, jpeg, png', '기본 프로필']) {
      expect(screen.getByText(new RegExp(note))).toBeInTheDocument();
    }
  });

  it('saves nickname and e-mail (blank clears it) and reloads the user', async () => {
    let user = me;
    const { spy } = mockFetch([
      { url: '/api/users', respond: () => ({ body: envelope(user) }) },
      {
        method: 'PATCH',
        url: '/api/users',
        respond: () => {
          user = { ...me, nickname: '푸른고래', email: null };
          return { body: envelope(user) };
        },
      },
    ]);
    renderProfile();
    const nickname = await screen.findByLabelText(/닉네임/);
    await userEvent.clear(nickname);
    await userEvent.type(nickname, '푸른고래');
    await userEvent.clear(screen.getByLabelText('이메일'));
    await userEvent.click(screen.getByRole('button', { name: '저장' }));
    expect(await screen.findByRole('status')).toHaveTextContent('프로필을 저장했어요.');
    expect(await sentProfile(spy)).toEqual({ nickname: '푸른고래', email: null, introduction: null });
    await waitFor(() =>
      expect(
        spy.mock.calls.filter(([url, init]) => String(url).endsWith('/api/users') && init?.method === 'GET'),
      ).toHaveLength(2),
    );
    expect(screen.getByLabelText(/닉네임/)).toHaveValue('푸른고래');
  });

  it('edits the instructor introduction shown on the instructor page', async () => {
    let user: User = { ...me, introduction: '예전 소개' };
    const { spy } = mockFetch([
      { url: '/api/users', respond: () => ({ body: envelope(user) }) },
      {
        method: 'PATCH',
        url: '/api/users',
        respond: () => {
          user = { ...me, introduction: '파도 그리는 10년 차 강사예요.' };
          return { body: envelope(user) };
        },
      },
    ]);
    renderProfile();
    const introduction = await screen.findByLabelText('강사 소개');
    expect(introduction).toHaveValue('예전 소개');
    await userEvent.clear(introduction);
    await userEvent.type(introduction, '  파도 그리는 10년 차 강사예요.  ');
    await userEvent.click(screen.getByRole('button', { name: '저장' }));
    expect(await screen.findByRole('status')).toHaveTextContent('프로필을 저장했어요.');
    expect(await sentProfile(spy)).toEqual({
      nickname: '고래',
      email: 'whale@example.com',
      introduction: '파도 그리는 10년 차 강사예요.',
    });
  });

  it('removes a saved photo: the default avatar at once, profileImage null on saving', async () => {
    const saved: User = { ...me, profile_image_path: '/uploads/avatars/me.jpg' };
    let user = saved;
    const { spy } = mockFetch([
      { url: '/api/users', respond: () => ({ body: envelope(user) }) },
      {
        method: 'PATCH',
        url: '/api/users',
        respond: () => {
          user = { ...saved, profile_image_path: null };
          return { body: envelope(user) };
        },
      },
    ]);
    renderProfile();
    const preview = await screen.findByRole('img', { name: '선택한 이미지 미리보기' });
    expect(preview.getAttribute('src')).toMatch(/\/uploads\/avatars\/me\.jpg$/);
    await userEvent.click(screen.getByRole('button', { name: '삭제' }));
    expect(screen.getByRole('img', { name: '선택한 이미지 미리보기' })).toHaveAttribute(
      'src',
      avatarFor('고래'),
    );
    expect(screen.getByText('저장하면 기본 프로필 사진으로 바뀌어요.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '삭제' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '저장' }));
    expect(await screen.findByRole('status')).toHaveTextContent('프로필을 저장했어요.');
    expect(await sentProfile(spy)).toEqual({
      nickname: '고래',
      email: 'whale@example.com',
      introduction: null,
      profileImage: null,
    });
    const form = spy.mock.calls.find(([, init]) => init?.method === 'PATCH')?.[1]?.body;
    expect(form instanceof FormData && form.get('imagefile')).toBeFalsy();
    await waitFor(() => expect(screen.queryByText('저장하면 기본 프로필 사진으로 바뀌어요.')).toBeNull());
  });

  it('delete first drops a newly chosen photo, leaving the saved one', async () => {
    const saved: User = { ...me, profile_image_path: '/uploads/avatars/me.jpg' };
    mockFetch([currentUser(saved)]);
    renderProfile();
    await screen.findByRole('img', { name: '선택한 이미지 미리보기' });
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    await userEvent.upload(input, new File([new Uint8Array([1, 2, 3])], 'new.png', { type: 'image/png' }));
    expect(screen.getByRole('img', { name: '선택한 이미지 미리보기' }).getAttribute('src')).toMatch(/^blob:/);
    await userEvent.click(screen.getByRole('button', { name: '삭제' }));
    expect(screen.getByRole('img', { name: '선택한 이미지 미리보기' }).getAttribute('src')).toMatch(
      /\/uploads\/avatars\/me\.jpg$/,
    );
    expect(screen.queryByText('저장하면 기본 프로필 사진으로 바뀌어요.')).not.toBeInTheDocument();
  });

  it('requires a nickname and checks the e-mail before saving', async () => {
    const { calls } = mockFetch([currentUser()]);
    renderProfile();
    await userEvent.clear(await screen.findByLabelText(/닉네임/));
    await userEvent.clear(screen.getByLabelText('이메일'));
    await userEvent.type(screen.getByLabelText('이메일'), 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: '저장' }));
    expect(await screen.findByText(USER_MESSAGES.nicknameRequired)).toBeInTheDocument();
    expect(screen.getByText(USER_MESSAGES.emailInvalid)).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  it('shows the server’s reason when the nickname is taken', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch([
      currentUser(),
      {
        method: 'PATCH',
        url: '/api/users',
        respond: () => ({
          status: 409,
          body: errorEnvelope(409, 'Conflict', '이미 사용 중인 닉네임이에요.'),
        }),
      },
    ]);
    renderProfile();
    await screen.findByLabelText(/닉네임/);
    await userEvent.click(screen.getByRole('button', { name: '저장' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('이미 사용 중인 닉네임이에요.');
  });

  it('rejects a photo that is not a small JPEG or PNG', async () => {
    mockFetch([currentUser()]);
    renderProfile();
    await screen.findByLabelText(/닉네임/);
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (input === null) throw new Error('no file input');
    const big = new File([new Uint8Array(5_242_881)], 'big.png', { type: 'image/png' });
    await userEvent.upload(input, big);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '올바르지 않은 파일이에요. 5MB 이하의 .jpg/.jpeg 또는 .png 파일만 올릴 수 있어요.',
    );
  });

  it('sends the user to login when authentication fails', async () => {
    mockFetch([
      { url: '/api/users', respond: () => ({ status: 401, body: errorEnvelope(401, 'Unauthorized') }) },
      {
        method: 'POST',
        url: '/api/auth/refresh',
        respond: () => {
          throw new TypeError('unreachable');
        },
      },
    ]);
    const { router } = renderProfile();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '사용자 인증에 실패했어요. 다시 로그인해 주세요.',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getAccessToken()).toBeNull();
  });
});

describe('withdrawal', { timeout: 15_000 }, () => {
  async function openDialog() {
    await userEvent.click(await screen.findByRole('button', { name: '회원 탈퇴' }));
    const dialog = screen.getByRole('alertdialog', { name: '탈퇴하시겠어요?' });
    expect(dialog).toHaveAccessibleDescription(
      '정말 탈퇴하시겠어요? 삭제된 계정은 복구할 수 없어요. 그래도 탈퇴하시겠어요?',
    );
    return dialog;
  }

  it('withdraws after the confirmation: notice, logged out, home', async () => {
    mockFetch([
      currentUser(),
      { method: 'DELETE', url: '/api/auth/signup', respond: () => ({ body: envelope('success') }) },
    ]);
    const { router } = renderProfile();
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: '탈퇴하기' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.getByRole('status')).toHaveTextContent('계정 삭제가 완료되었어요.');
    await waitFor(() => expect(getAccessToken()).toBeNull());
    expect(getRefreshToken()).toBeNull();
  });

  it('cancel keeps the account', async () => {
    const { calls } = mockFetch([currentUser()]);
    renderProfile();
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: '취소' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  });

  it.each([
    [401, '권한이 없어요.'],
    [500, '탈퇴에 실패했어요. 다시 시도해 주세요.'],
  ])('answers %i with the catalogue text', async (status, text) => {
    mockFetch([
      currentUser(),
      {
        method: 'DELETE',
        url: '/api/auth/signup',
        respond: () => ({ status, body: errorEnvelope(status, 'x') }),
      },
    ]);
    const { router } = renderProfile();
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: '탈퇴하기' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/edit-info');
  });

  it('says no permission without a token', async () => {
    const { calls } = mockFetch([currentUser()]);
    renderProfile();
    const dialog = await openDialog();
    localStorage.removeItem('accessToken');
    await userEvent.click(within(dialog).getByRole('button', { name: '탈퇴하기' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('권한이 없어요.');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  });
});
