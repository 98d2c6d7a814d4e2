import type { RouteObject } from 'react-router';
import { Spinner } from '../components/ui/spinner.tsx';
import { paths } from '../config/paths.ts';
import type { RouteHandle } from './document-title.tsx';
import { NotFound } from './not-found.tsx';
import { RequireAuth } from './require-auth.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { APP_TEXTS } from './texts.ts';

function title(page: keyof typeof APP_TEXTS.titles): RouteHandle {
  return { title: APP_TEXTS.titles[page] };
}

/**
 * Every page of the product (product-spec section 2). Each is its own lazily loaded module under `routes/`,
 * exporting `Component`, so the first visit loads only the page it shows; only the 404 page is in the first
 * chunk, since the error boundary shows it too. A route's `handle` names it in the browser tab (`DocumentTitle`).
 */
const pages: RouteObject[] = [
  { path: paths.home.pattern, lazy: () => import('./routes/home.tsx') },
  { path: paths.login.pattern, handle: title('login'), lazy: () => import('./routes/login.tsx') },
  {
    path: paths.kakaoCallback.pattern,
    handle: title('kakaoCallback'),
    lazy: () => import('./routes/kakao-callback.tsx'),
  },
  {
    path: paths.signInfo.pattern,
    handle: title('signInfo'),
    lazy: () => import('./routes/sign-info.tsx'),
  },
  { path: paths.list.pattern, handle: title('list'), lazy: () => import('./routes/list.tsx') },
  {
    path: paths.liveList.pattern,
    handle: title('liveList'),
    lazy: () => import('./routes/live-list.tsx'),
  },
  {
    path: paths.lectureInfo.pattern,
    handle: title('lectureInfo'),
    lazy: () => import('./routes/lecture-info.tsx'),
  },
  {
    element: <RequireAuth />,
    children: [
      {
        path: paths.enrollmentBare.pattern,
        handle: title('enrollment'),
        lazy: () => import('./routes/enrollment.tsx'),
      },
      {
        path: paths.enrollment.pattern,
        handle: title('enrollment'),
        lazy: () => import('./routes/enrollment.tsx'),
      },
      {
        path: paths.liveStudent.pattern,
        handle: title('liveStudent'),
        lazy: () => import('./routes/live-student.tsx'),
      },
      {
        path: paths.liveTeacher.pattern,
        handle: title('liveTeacher'),
        lazy: () => import('./routes/live-teacher.tsx'),
      },
      {
        path: paths.classroom.pattern,
        handle: title('classroom'),
        lazy: () => import('./routes/classroom.tsx'),
      },
      {
        path: paths.dashboardStudent.pattern,
        handle: title('dashboardStudent'),
        lazy: () => import('./routes/dashboard-student.tsx'),
      },
      {
        path: paths.dashboardTeacher.pattern,
        handle: title('dashboardTeacher'),
        lazy: () => import('./routes/dashboard-teacher.tsx'),
      },
      {
        path: paths.dashboardEdit.pattern,
        handle: title('dashboardEdit'),
        lazy: () => import('./routes/dashboard-edit.tsx'),
      },
      {
        path: paths.lectureCreatedBare.pattern,
        handle: title('lectureCreated'),
        lazy: () => import('./routes/lecture-created.tsx'),
      },
      {
        path: paths.lectureCreated.pattern,
        handle: title('lectureCreated'),
        lazy: () => import('./routes/lecture-created.tsx'),
      },
      {
        path: paths.lectureOpen.pattern,
        handle: title('lectureOpen'),
        lazy: () => import('./routes/lecture-open.tsx'),
      },
      {
        path: paths.lectureStudents.pattern,
        handle: title('lectureStudents'),
        lazy: () => import('./routes/lecture-students.tsx'),
      },
      { path: paths.mypage.pattern, handle: title('mypage'), lazy: () => import('./routes/mypage.tsx') },
      {
        path: paths.editInfo.pattern,
        handle: title('editInfo'),
        lazy: () => import('./routes/edit-info.tsx'),
      },
    ],
  },
  { path: '*', handle: title('notFound'), Component: NotFound },
];

/**
 * The frame (header, page, bottom navigation) around every page. A page that fails to load or render shows
 * `RouteError` inside the frame; the frame itself failing shows it alone.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    HydrateFallback: () => <Spinner />,
    ErrorBoundary: RouteError,
    children: [{ ErrorBoundary: RouteError, children: pages }],
  },
];
