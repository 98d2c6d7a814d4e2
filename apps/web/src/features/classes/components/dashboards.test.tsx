import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Schedule } from '@sea/contract/schedules';
import { DEFAULT_BANNERS } from '../../../lib/default-images.ts';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import type { MockRoute } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import type { Dashboard } from '../api/get-dashboard.ts';
import { classItem } from '../test/class-fixtures.ts';
import { StudentDashboardPage } from './student-dashboard-page.tsx';
import { TeacherDashboardPage } from './teacher-dashboard-page.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';

const lesson: Schedule = {
  id: 3,
  class_id: 7,
  content: '첫 수업: 파도 읽기',
  date: '2026-11-23',
  start_time: '19:00:00',
  end_time: '21:00:00',
};

function dashboard(overrides: Partial<Dashboard> = {}): Dashboard {
  return { ...classItem(), role: '수강생', schedules: [lesson], ...overrides };
}

const answer = (data: Dashboard): MockRoute => ({
  url: '/api/classes/7/dashboard',
  respond: () => ({ body: envelope(data) }),
});

const elsewhere = [
  { path: '/live/:role/:classId', element: <p>라이브 강의실 화면</p> },
  { path: '/dashboard/teacher/:classId', element: <TeacherDashboardPage /> },
  { path: '/dashboard/student/:classId', element: <StudentDashboardPage /> },
];

signedInPerTest();

function renderStudent() {
  return renderWithProviders(<StudentDashboardPage />, {
    route: '/dashboard/student/7',
    path: '/dashboard/student/:classId',
    routes: elsewhere,
  });
}

function renderTeacher() {
  return renderWithProviders(<TeacherDashboardPage />, {
    route: '/dashboard/teacher/7',
    path: '/dashboard/teacher/:classId',
    routes: elsewhere,
  });
}

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

  it('tells a student who is not enrolled (418) that it is for enrolled students, with the enrol button', async () => {
    const { calls } = mockFetch([
      {
        url: '/api/classes/7/dashboard',
        respond: () => ({ status: 418, body: errorEnvelope(418, 'Role Error', '수강생이 아니에요.') }),
      },
      { url: '/api/classes/7/role', respond: () => ({ body: envelope('관계없음') }) },
      { method: 'POST', url: '/api/classes/7/enroll', respond: () => ({ body: envelope('success') }) },
    ]);
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
    await userEvent.click(enrol);
    await waitFor(() => expect(router.state.location.pathname).toBe('/enrollment/7'));
    expect(calls.some((call) => call.method === 'POST' && call.url.endsWith('/api/classes/7/enroll'))).toBe(
      true,
    );
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

describe('teacher dashboard', { timeout: 15_000 }, () => {
  const teacher = () => answer(dashboard({ role: '강사', student_count: 12 }));

  it('shows the student count with the student list link and the teacher actions', async () => {
    mockFetch([teacher()]);
    const { router } = renderTeacher();
    expect(await screen.findByText('수강생 12명')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '수강생 목록 보기' })).toHaveAttribute(
      'href',
      '/lecture/students/7',
    );
    await userEvent.click(screen.getByRole('button', { name: '라이브 강의 시작' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/live/teacher/7'));
    expect(router.state.location.search).toBe('');
  });

  it("starts the lecture without recording when '녹화하지 않기' is checked", async () => {
    mockFetch([teacher()]);
    const { router } = renderTeacher();
    const noRecording = await screen.findByRole('checkbox', { name: '녹화하지 않기' });
    expect(noRecording).not.toBeChecked();
    await userEvent.click(noRecording);
    await userEvent.click(screen.getByRole('button', { name: '라이브 강의 시작' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/live/teacher/7'));
    expect(router.state.location.search).toBe('?record=off');
  });

  it('says the schedule and the student information could not be loaded when the reload after a change fails', async () => {
    let fail = false;
    mockFetch([
      {
        url: '/api/classes/7/dashboard',
        respond: () =>
          fail
            ? { status: 503, body: errorEnvelope(503, 'Service Unavailable') }
            : { body: envelope(dashboard({ role: '강사', student_count: 12 })) },
      },
      {
        method: 'DELETE',
        url: '/api/classes/7/schedule',
        respond: () => {
          fail = true;
          return { body: envelope('success') };
        },
      },
    ]);
    renderTeacher();
    expect(await screen.findByText('수강생 12명')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '첫 수업: 파도 읽기 일정 삭제' }));
    const schedule = screen.getByRole('region', { name: '강의 일정' });
    expect(await within(schedule).findByRole('alert')).toHaveTextContent('일정을 불러오지 못했어요.');
    expect(screen.getByText('수강생 정보를 불러오지 못했어요.')).toHaveAttribute('role', 'alert');
    expect(screen.queryByText('수강생 12명')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '수강생 목록 보기' })).toBeInTheDocument();
    // The schedule form stays usable.
    expect(within(schedule).getByRole('form', { name: '일정 추가' })).toBeInTheDocument();
  });

  it('edit info goes to the edit page', async () => {
    mockFetch([teacher()]);
    const { router } = renderTeacher();
    await userEvent.click(await screen.findByRole('button', { name: '정보 수정' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/edit/7'));
  });

  it('deletes the class after the confirmation and goes to my page', async () => {
    const { calls } = mockFetch([
      teacher(),
      {
        method: 'DELETE',
        url: '/api/classes/7/delete',
        respond: () => ({ body: envelope('success') }),
      },
    ]);
    const { router } = renderTeacher();
    await userEvent.click(await screen.findByRole('button', { name: '강의 삭제' }));
    let dialog = screen.getByRole('alertdialog', { name: '이 강의를 삭제하시겠어요?' });
    expect(dialog).toHaveAccessibleDescription('삭제한 강의는 복구할 수 없어요. 그래도 삭제하시겠어요?');
    await userEvent.click(within(dialog).getByRole('button', { name: '취소' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: '강의 삭제' }));
    dialog = screen.getByRole('alertdialog', { name: '이 강의를 삭제하시겠어요?' });
    await userEvent.click(within(dialog).getByRole('button', { name: '삭제' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/mypage'));
    expect(screen.getByRole('status')).toHaveTextContent('강의가 삭제되었어요.');
  });

  it('says the deletion failed and closes the confirmation', async () => {
    mockFetch([
      teacher(),
      {
        method: 'DELETE',
        url: '/api/classes/7/delete',
        respond: () => ({ status: 500, body: errorEnvelope(500, 'Internal Server Error') }),
      },
    ]);
    const { router } = renderTeacher();
    await userEvent.click(await screen.findByRole('button', { name: '강의 삭제' }));
    await userEvent.click(screen.getByRole('button', { name: '삭제' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('강의 삭제에 실패했어요. 다시 시도해 주세요.');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/dashboard/teacher/7');
  });

  it('adds a schedule entry with the API’s time format and removes one', async () => {
    const sent: unknown[] = [];
    mockFetch([
      teacher(),
      {
        method: 'POST',
        url: '/api/classes/7/schedule',
        respond: async (request) => {
          sent.push(await request.json());
          return { body: envelope({ ...lesson, id: 4 }) };
        },
      },
      {
        method: 'DELETE',
        url: '/api/classes/7/schedule',
        respond: async (request) => {
          sent.push(await request.json());
          return { body: envelope('success') };
        },
      },
    ]);
    renderTeacher();
    const form = await screen.findByRole('form', { name: '일정 추가' });
    await userEvent.type(within(form).getByLabelText(/일정 내용/), '두 번째 수업');
    await userEvent.type(within(form).getByLabelText(/날짜/), '2026-11-30');
    await userEvent.type(within(form).getByLabelText(/시작 시간/), '10:00');
    await userEvent.type(within(form).getByLabelText(/종료 시간/), '12:00');
    await userEvent.click(within(form).getByRole('button', { name: '일정 추가' }));
    expect(await screen.findByText('일정을 추가했어요.')).toBeInTheDocument();
    expect(sent[0]).toEqual({
      content: '두 번째 수업',
      date: '2026-11-30',
      start_time: '10:00:00',
      end_time: '12:00:00',
    });

    await userEvent.click(screen.getByRole('button', { name: '첫 수업: 파도 읽기 일정 삭제' }));
    expect(await screen.findByText('일정을 삭제했어요.')).toBeInTheDocument();
    expect(sent[1]).toEqual({ schedule_id: 3 });
  });

  it('checks a schedule entry before sending it', async () => {
    const { calls } = mockFetch([teacher()]);
    renderTeacher();
    const form = await screen.findByRole('form', { name: '일정 추가' });
    await userEvent.type(within(form).getByLabelText(/일정 내용/), '거꾸로 된 수업');
    await userEvent.type(within(form).getByLabelText(/날짜/), '2026-11-30');
    await userEvent.type(within(form).getByLabelText(/시작 시간/), '12:00');
    await userEvent.type(within(form).getByLabelText(/종료 시간/), '10:00');
    await userEvent.click(within(form).getByRole('button', { name: '일정 추가' }));
    expect(await screen.findByText('종료 시간은 시작 시간보다 늦어야 해요.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
