import type { RouteObject } from 'react-router';
import { Spinner } from '../components/ui/spinner.tsx';
import { paths } from '../config/paths.ts';
import type { RouteHandle } from './document-title.tsx';
import { NotFound } from './not-found.tsx';
import { RequireAuth } from './require-auth.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { APP_TEXTS } from './texts.ts';

type PageName = keyof typeof APP_TEXTS.titles;

function title(name: PageName): RouteHandle {
  return { title: APP_TEXTS.titles[name] };
}

/** A page at `path`, named `name` in the browser tab, whose module `load` brings in when it is first shown. */
function page(path: string, name: PageName, load: RouteObject['lazy']): RouteObject {
  return { path, handle: title(name), lazy: load };
}

/**
 * Every page of the product (product-spec section 2). Each is its own lazily loaded module under `routes/`,
 * exporting `Component`, so the first visit loads only the page it shows; only the 404 page is in the first
 * chunk, since the error boundary shows it too. A route's `handle` names it in the browser tab (`DocumentTitle`);
 * home has the app's name alone.
 */
const pages: RouteObject[] = [
  { path: paths.home.pattern, lazy: () => import('./routes/home.tsx') },
  page(paths.login.pattern, 'login', () => import('./routes/login.tsx')),
  page(paths.kakaoCallback.pattern, 'kakaoCallback', () => import('./routes/kakao-callback.tsx')),
  page(paths.signInfo.pattern, 'signInfo', () => import('./routes/sign-info.tsx')),
  page(paths.list.pattern, 'list', () => import('./routes/list.tsx')),
  page(paths.liveList.pattern, 'liveList', () => import('./routes/live-list.tsx')),
  page(paths.lectureInfo.pattern, 'lectureInfo', () => import('./routes/lecture-info.tsx')),
  {
    element: <RequireAuth />,
    children: [
      page(paths.enrollmentBare.pattern, 'enrollment', () => import('./routes/enrollment.tsx')),
      page(paths.enrollment.pattern, 'enrollment', () => import('./routes/enrollment.tsx')),
      page(paths.liveStudent.pattern, 'liveStudent', () => import('./routes/live-student.tsx')),
      page(paths.liveTeacher.pattern, 'liveTeacher', () => import('./routes/live-teacher.tsx')),
      page(paths.classroom.pattern, 'classroom', () => import('./routes/classroom.tsx')),
      page(
        paths.dashboardStudent.pattern,
        'dashboardStudent',
        () => import('./routes/dashboard-student.tsx'),
      ),
      page(
        paths.dashboardTeacher.pattern,
        'dashboardTeacher',
        () => import('./routes/dashboard-teacher.tsx'),
      ),
      page(paths.dashboardEdit.pattern, 'dashboardEdit', () => import('./routes/dashboard-edit.tsx')),
      page(paths.lectureCreatedBare.pattern, 'lectureCreated', () => import('./routes/lecture-created.tsx')),
      page(paths.lectureCreated.pattern, 'lectureCreated', () => import('./routes/lecture-created.tsx')),
      page(paths.lectureOpen.pattern, 'lectureOpen', () => import('./routes/lecture-open.tsx')),
      page(paths.lectureStudents.pattern, 'lectureStudents', () => import('./routes/lecture-students.tsx')),
      page(paths.mypage.pattern, 'mypage', () => import('./routes/mypage.tsx')),
      page(paths.editInfo.pattern, 'editInfo', () => import('./routes/edit-info.tsx')),
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
