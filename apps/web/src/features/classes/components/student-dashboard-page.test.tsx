import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_BANNERS } from '../../../lib/default-images.ts';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { StudentDashboardPage } from './student-dashboard-page.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';
import { dashboard, answer, elsewhere, renderStudent } from '../test/dashboard-pages.tsx';

signedInPerTest();

describe('student dashboard', { timeout: 15_000 }, () => {
  it('shows the class, its instructor, the announcement fallback and the schedule', async () => {
    mockFetch([answer(dashboard({ announcement: null, prerequisite: null }))]);
    renderStudent();
    expect(
      await screen.findByRole('heading', { level: 1, name: '바다에서 배우는 타입스크립트' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /강의 배너/ })).toHaveAttribute('src', DEFAULT_BANNERS[7]);
    expect(screen.getByText('프로그래밍')).toBeInTheDocument();
    expect(screen.getByText('문어선생')).toBeInTheDocument();
    expect(screen.getByText('10년차 개발자예요.')).toBeInTheDocument();
    expect(screen.getByText('등록된 공지사항이 없어요.')).toBeInTheDocument();
    expect(screen.getByText('매주 한 번, 실습 위주로 진행해요.')).toBeInTheDocument();
    expect(screen.getByText('타입으로 버그를 줄여요.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: '사전 지식 및 준비물' })).not.toBeInTheDocument();
    const schedule = screen.getByRole('region', { name: '강의 일정' });
    expect(schedule).toHaveTextContent('첫 수업: 파도 읽기');
    expect(schedule).toHaveTextContent('2026년 11월 23일');
    expect(schedule).toHaveTextContent('19:00 ~ 21:00');
    expect(within(schedule).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '강의 소개 보기' })).toHaveAttribute('href', '/lecture/info/7');
    expect(screen.queryByRole('button', { name: '강의 삭제' })).not.toBeInTheDocument();
  });

  it('shows prerequisites and the announcement when present', async () => {
    mockFetch([answer(dashboard())]);
    renderStudent();
    expect(await screen.findByText('첫 수업은 다음 주 월요일이에요.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '사전 지식 및 준비물' })).toBeInTheDocument();
    expect(screen.getByText('자바스크립트 기초')).toBeInTheDocument();
  });

  it('lets the student into the live room only while the class is live', async () => {
    mockFetch([answer(dashboard({ is_active: false }))]);
    renderStudent();
    const enter = await screen.findByRole('button', { name: '라이브 강의 입장' });
    expect(enter).toBeDisabled();
    expect(enter).toHaveAccessibleDescription(/지금은 라이브 강의 중이 아니에요/);
  });

  it('enters the live room while live', async () => {
    mockFetch([answer(dashboard({ is_active: true }))]);
    const { router } = renderStudent();
    await userEvent.click(await screen.findByRole('button', { name: '라이브 강의 입장' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/live/student/7'));
  });

  it('moves the teacher to their own dashboard', async () => {
    mockFetch([answer(dashboard({ role: '강사' }))]);
    const { router } = renderStudent();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/teacher/7'));
    expect(await screen.findByRole('button', { name: '라이브 강의 시작' })).toBeInTheDocument();
  });

  it('says so when the dashboard cannot be loaded', async () => {
    mockFetch([
      {
        url: '/api/classes/7/dashboard',
        respond: () => ({ status: 404, body: errorEnvelope(404, 'Not Found', '강의를 찾을 수 없어요.') }),
      },
    ]);
    renderStudent();
    expect(await screen.findByRole('alert')).toHaveTextContent('강의 정보를 불러오지 못했어요.');
  });

  it('tells a stranger it is for enrolled students without asking for the dashboard (no 418 to log)', async () => {
    const { calls } = mockFetch([
      {
        url: '/api/classes/7/dashboard',
        respond: () => ({ status: 418, body: errorEnvelope(418, 'Role Error', '수강생이 아니에요.') }),
      },
      { url: '/api/classes/7/role', respond: () => ({ body: envelope('관계없음') }) },
      { method: 'POST', url: '/api/classes/7/enroll', respond: () => ({ body: envelope('success') }) },
    ]);
    const logged = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')];
    const { router } = renderWithProviders(<StudentDashboardPage />, {
      route: '/dashboard/student/7',
      path: '/dashboard/student/:classId',
      routes: [...elsewhere, { path: '/enrollment/:classId', element: <p>수강 신청 완료 화면</p> }],
    });
    expect(await screen.findByText(/이 대시보드는 수강생만 볼 수 있어요/)).toBeInTheDocument();
    expect(screen.queryByText('강의 정보를 불러오지 못했어요.')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '강의 소개 보기' })).toHaveAttribute('href', '/lecture/info/7');
    const enrol = await screen.findByRole('button', { name: '수강 신청하기' });
    await waitFor(() => expect(enrol).toBeEnabled());
    expect(calls.map((call) => new URL(call.url).pathname)).not.toContain('/api/classes/7/dashboard');
    for (const spy of logged) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
    await userEvent.click(enrol);
    await waitFor(() => expect(router.state.location.pathname).toBe('/enrollment/7'));
    expect(calls.some((call) => call.method === 'POST' && call.url.endsWith('/api/classes/7/enroll'))).toBe(
      true,
    );
  });

  it('asks the dashboard when the role cannot be told, and its 418 says the same', async () => {
    const { calls } = mockFetch([
      {
        url: '/api/classes/7/dashboard',
        respond: () => ({ status: 418, body: errorEnvelope(418, 'Role Error', '수강생이 아니에요.') }),
      },
      {
        url: '/api/classes/7/role',
        respond: () => ({ status: 500, body: errorEnvelope(500, 'Internal Server Error') }),
      },
    ]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderStudent();
    await new Promise((r) => setTimeout(r, 500));
    process.stdout.write(
      'CALLS ' + calls.map((call) => call.url).join(' ') + document.body.textContent + '\n',
    );
    expect(await screen.findByText(/이 대시보드는 수강생만 볼 수 있어요/)).toBeInTheDocument();
    expect(calls.map((call) => new URL(call.url).pathname)).toContain('/api/classes/7/dashboard');
    // Each failed role request is told once, not on every render.
    const asked = calls.filter((call) => call.url.endsWith('/api/classes/7/role')).length;
    expect(asked).toBeLessThanOrEqual(2);
    expect(warn).toHaveBeenCalledTimes(asked);
    warn.mockRestore();
  });

  it('keeps the page when a later reload fails and says the schedule could not be loaded', async () => {
    let fail = false;
    mockFetch([
      {
        url: '/api/classes/7/dashboard',
        respond: () =>
          fail
            ? { status: 500, body: errorEnvelope(500, 'Internal Server Error') }
            : { body: envelope(dashboard()) },
      },
    ]);
    const { queryClient } = renderStudent();
    const schedule = await screen.findByRole('region', { name: '강의 일정' });
    expect(schedule).toHaveTextContent('첫 수업: 파도 읽기');
    fail = true;
    await queryClient.refetchQueries();
    expect(await within(schedule).findByRole('alert')).toHaveTextContent('일정을 불러오지 못했어요.');
    expect(schedule).not.toHaveTextContent('첫 수업: 파도 읽기');
    expect(
      screen.getByRole('heading', { level: 1, name: '바다에서 배우는 타입스크립트' }),
    ).toBeInTheDocument();

    fail = false;
    await queryClient.refetchQueries();
    await waitFor(() => expect(schedule).toHaveTextContent('첫 수업: 파도 읽기'));
    expect(within(schedule).queryByRole('alert')).not.toBeInTheDocument();
  });
});
