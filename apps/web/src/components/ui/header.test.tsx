import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { setTokens } from '../../lib/auth-tokens.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { wantsSearchFocus } from './header-search.tsx';
import { Header, liveExitTarget } from './header.tsx';

function Where() {
  const { pathname, search, state } = useLocation();
  return <p>{`path: ${pathname}${search}${wantsSearchFocus(state) ? ' (search box focused)' : ''}`}</p>;
}

function renderHeader(
  route: string,
  user: { nickname: string; profileImagePath: string | null } | null = null,
) {
  return renderWithProviders(<Header user={user} />, {
    route,
    routes: [
      { path: '/dashboard/:role/:id', element: <p>dashboard page</p> },
      { path: '/list', element: <Where /> },
    ],
  });
}

describe('Header', () => {
  it('shows a login button and no left button on the home page when logged out', () => {
    renderHeader('/');
    expect(screen.getByRole('link', { name: '로그인' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: '바다학원 홈으로' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: /뒤로|나가기/ })).not.toBeInTheDocument();
  });

  it('has a class search that opens the results page', async () => {
    renderHeader('/');
    await userEvent.type(screen.getByRole('searchbox', { name: '강의 검색' }), '드로 잉{Enter}');
    expect(await screen.findByText('path: /list?q=%EB%93%9C%EB%A1%9C+%EC%9E%89')).toBeInTheDocument();
  });

  it("refuses more than five words before sending, with the server's words", async () => {
    renderHeader('/');
    const box = screen.getByRole('searchbox', { name: '강의 검색' });
    await userEvent.type(box, '바 다 강 의 설 명{Enter}');
    expect((box as HTMLInputElement).validationMessage).toBe('검색어는 단어 5개까지 입력할 수 있어요.');
    expect(screen.queryByText(/^path:/)).not.toBeInTheDocument();
    await userEvent.type(box, '{Backspace}{Backspace}{Enter}');
    expect(await screen.findByText(/^path: \/list\?q=/)).toBeInTheDocument();
  });

  it('has a narrow-screen search button that opens the list with its search box focused', async () => {
    renderHeader('/');
    await userEvent.click(screen.getByRole('link', { name: '강의 검색하기' }));
    expect(await screen.findByText('path: /list (search box focused)')).toBeInTheDocument();
  });

  it('shows the avatar labelled my classroom, linking to /mypage, when a token is stored', () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    renderHeader('/', { nickname: '고래', profileImagePath: null });
    const link = screen.getByRole('link', { name: '내 강의실' });
    expect(link).toHaveAttribute('href', '/mypage');
    expect(link.querySelector('img')).not.toBeNull();
  });

  it('shows a plain circle, no default picture, while the user info is on its way', () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    renderHeader('/');
    const link = screen.getByRole('link', { name: '내 강의실' });
    expect(link.querySelector('img')).toBeNull();
    expect(link.querySelector('[aria-hidden="true"]')).not.toBeNull();
  });

  it.each(['/login', '/sign-info', '/oauth/kakao/callback'])('has no right-hand button on %s', (route) => {
    renderHeader(route);
    expect(screen.queryByRole('link', { name: '로그인' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '내 강의실' })).not.toBeInTheDocument();
  });

  it.each([
    '/mypage',
    '/lecture/open',
    '/lecture/info/3',
    '/dashboard/student/3',
    '/dashboard/teacher/3',
    '/lecture/students/3',
  ])('shows a back button on %s', (route) => {
    renderWithProviders(<Header user={null} />, { route });
    expect(screen.getByRole('button', { name: '뒤로 가기' })).toBeInTheDocument();
  });

  it('goes back one step with the back button', async () => {
    const { router } = renderWithProviders(<Header user={null} />, { route: '/lecture/info/3' });
    await router.navigate('/mypage');
    await userEvent.click(screen.getByRole('button', { name: '뒤로 가기' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/lecture/info/3'));
  });

  it('asks before leaving a live room and then goes to the dashboard', async () => {
    const { router } = renderHeader('/live/student/7');
    await userEvent.click(screen.getByRole('button', { name: '강의에서 나가기' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('강의에서 나가시겠어요?');
    expect(dialog).toHaveTextContent('강의가 아직 진행 중이에요.');
    await userEvent.click(screen.getByRole('button', { name: '취소' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/live/student/7');

    await userEvent.click(screen.getByRole('button', { name: '강의에서 나가기' }));
    await userEvent.click(await screen.findByRole('button', { name: '나가기' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/student/7'));
  });

  it('maps live rooms to the dashboard of the same role', () => {
    expect(liveExitTarget('/live/teacher/12')).toBe('/dashboard/teacher/12');
    expect(liveExitTarget('/live/student/4')).toBe('/dashboard/student/4');
    expect(liveExitTarget('/elsewhere')).toBe('/');
  });
});
