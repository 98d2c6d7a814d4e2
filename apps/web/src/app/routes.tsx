import type { RouteObject } from 'react-router';
import { Spinner } from '../components/ui/spinner.tsx';
import { paths } from '../config/paths.ts';
import { RequireAuth } from './require-auth.tsx';
import { RootLayout } from './root-layout.tsx';

/**
 * Every route of the product (product-spec section 2). Each page is its own lazily loaded module under
 * `routes/`, exporting `Component`, so the first visit loads only the page it shows.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    HydrateFallback: () => <Spinner />,
    children: [
      { path: paths.home.pattern, lazy: () => import('./routes/home.tsx') },
      { path: paths.login.pattern, lazy: () => import('./routes/login.tsx') },
      { path: paths.kakaoCallback.pattern, lazy: () => import('./routes/kakao-callback.tsx') },
      { path: paths.signInfo.pattern, lazy: () => import('./routes/sign-info.tsx') },
      { path: paths.list.pattern, lazy: () => import('./routes/list.tsx') },
      { path: paths.liveList.pattern, lazy: () => import('./routes/live-list.tsx') },
      { path: paths.lectureInfo.pattern, lazy: () => import('./routes/lecture-info.tsx') },
      {
        element: <RequireAuth />,
        children: [
          { path: paths.enrollmentBare.pattern, lazy: () => import('./routes/enrollment.tsx') },
          { path: paths.enrollment.pattern, lazy: () => import('./routes/enrollment.tsx') },
          { path: paths.liveStudent.pattern, lazy: () => import('./routes/live-student.tsx') },
          { path: paths.liveTeacher.pattern, lazy: () => import('./routes/live-teacher.tsx') },
          { path: paths.classroom.pattern, lazy: () => import('./routes/classroom.tsx') },
          { path: paths.dashboardStudent.pattern, lazy: () => import('./routes/dashboard-student.tsx') },
          { path: paths.dashboardTeacher.pattern, lazy: () => import('./routes/dashboard-teacher.tsx') },
          { path: paths.dashboardEdit.pattern, lazy: () => import('./routes/dashboard-edit.tsx') },
          { path: paths.lectureCreatedBare.pattern, lazy: () => import('./routes/lecture-created.tsx') },
          { path: paths.lectureCreated.pattern, lazy: () => import('./routes/lecture-created.tsx') },
          { path: paths.lectureOpen.pattern, lazy: () => import('./routes/lecture-open.tsx') },
          { path: paths.lectureStudents.pattern, lazy: () => import('./routes/lecture-students.tsx') },
          { path: paths.mypage.pattern, lazy: () => import('./routes/mypage.tsx') },
          { path: paths.editInfo.pattern, lazy: () => import('./routes/edit-info.tsx') },
        ],
      },
      { path: '*', lazy: () => import('./routes/not-found.tsx') },
    ],
  },
];
