import type { Schedule } from '@sea/contract/schedules';
import { envelope } from '../../../testing/fetch-mock.ts';
import type { MockRoute } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import type { Dashboard } from '../api/get-dashboard.ts';
import { classItem } from './class-fixtures.ts';
import { StudentDashboardPage } from '../components/student-dashboard-page.tsx';
import { TeacherDashboardPage } from '../components/teacher-dashboard-page.tsx';

/** The one schedule entry of these dashboards. */
export const lesson: Schedule = {
  id: 3,
  class_id: 7,
  content: '첫 수업: 파도 읽기',
  date: '2026-11-23',
  start_time: '19:00:00',
  end_time: '21:00:00',
};

/** Class 7's dashboard as the server answers it, for a student, changed by `overrides`. */
export function dashboard(overrides: Partial<Dashboard> = {}): Dashboard {
  return { ...classItem(), role: '수강생', schedules: [lesson], ...overrides };
}

/**
 * The mocked routes of a member of class 7: `data` as its dashboard, and `data.role` as the caller's role
 * there (which the page asks first).
 */
export const answer = (data: Dashboard): MockRoute => ({
  url: /^\/api\/classes\/7\/(dashboard|role)$/,
  respond: (request) => ({
    body: envelope(new URL(request.url).pathname.endsWith('/role') ? data.role : data),
  }),
});

/** Where the dashboards lead: the live room, and each other. */
export const elsewhere = [
  { path: '/live/:role/:classId', element: <p>라이브 강의실 화면</p> },
  { path: '/dashboard/teacher/:classId', element: <TeacherDashboardPage /> },
  { path: '/dashboard/student/:classId', element: <StudentDashboardPage /> },
];

/** Class 7's student dashboard. */
export function renderStudent() {
  return renderWithProviders(<StudentDashboardPage />, {
    route: '/dashboard/student/7',
    path: '/dashboard/student/:classId',
    routes: elsewhere,
  });
}

/** Class 7's teacher dashboard. */
export function renderTeacher() {
  return renderWithProviders(<TeacherDashboardPage />, {
    route: '/dashboard/teacher/7',
    path: '/dashboard/teacher/:classId',
    routes: elsewhere,
  });
}
