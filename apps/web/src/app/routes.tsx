import type { RouteObject } from 'react-router';
import type { PageName } from '@sea/contract/page-modules';
import { Spinner } from '../components/ui/spinner.tsx';
import { paths } from '../config/paths.ts';
import type { RouteHandle } from './document-title.tsx';
import { NotFound } from './not-found.tsx';
import { loadPage } from './page-modules.ts';
import { RequireAuth } from './require-auth.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { APP_TEXTS } from './texts.ts';

/** A page at `path` (its own pattern unless given), titled and loaded by its name (see `loadPage`). */
function page(name: Exclude<PageName, 'home'>, path: string = paths[name].pattern): RouteObject {
  const handle: RouteHandle = { title: APP_TEXTS.titles[name] };
  return { path, handle, lazy: loadPage(name) };
}

/**
 * Every page of the product (product-spec section 2). Each is its own lazily loaded module under `routes/`,
 * named after the page (`pageModule` of the contract) and exporting `Component`, so the first visit loads only
 * the page it shows; only the 404 page is in the first chunk, since the error boundary shows it too. A route's
 * `handle` names it in the browser tab (`DocumentTitle`); home has the app's name alone.
 */
const pages: RouteObject[] = [
  { path: paths.home.pattern, lazy: loadPage('home') },
  page('login'),
  page('kakaoCallback'),
  page('signInfo'),
  page('list'),
  page('liveList'),
  page('lectureInfo'),
  page('instructor'),
  {
    element: <RequireAuth />,
    children: [
      page('enrollment', paths.enrollmentBare.pattern),
      page('enrollment'),
      page('liveStudent'),
      page('liveTeacher'),
      page('classroom'),
      page('dashboardStudent'),
      page('dashboardTeacher'),
      page('dashboardEdit'),
      page('replayStudent'),
      page('replayTeacher'),
      page('lectureCreated', paths.lectureCreatedBare.pattern),
      page('lectureCreated'),
      page('lectureOpen'),
      page('lectureStudents'),
      page('mypage'),
      page('editInfo'),
    ],
  },
  { path: '*', handle: { title: APP_TEXTS.titles.notFound } satisfies RouteHandle, Component: NotFound },
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
