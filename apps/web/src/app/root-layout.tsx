import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { BottomNav } from '../components/ui/bottom-nav.tsx';
import { Header } from '../components/ui/header.tsx';
import { isDarkPath, isLivePath } from '../config/paths.ts';
import { clearTokens } from '../lib/auth-tokens.ts';
import { useCurrentUser } from '../lib/current-user.ts';
import { isHttpError } from '../lib/http-error.ts';
import { DocumentTitle } from './document-title.tsx';
import { NavigationProgress } from './navigation-progress.tsx';
import { ScrollToTop } from './scroll-to-top.tsx';
import { APP_TEXTS } from './texts.ts';
import styles from './root-layout.module.css';

// Loaded only for a signed-in reader, after the page: the notices (their menu, their stream and its zod
// schemas) stay out of a first visit's JavaScript.
const NotificationBell = lazy(() =>
  import('../features/notifications/components/notification-bell.tsx').then((module) => ({
    default: module.NotificationBell,
  })),
);

/** The frame of every page: header, the page, bottom navigation; dark theme on the spec's dark pages. */
export function RootLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const user = useCurrentUser();

  useEffect(() => {
    document.documentElement.dataset.theme = isDarkPath(pathname) ? 'dark' : 'light';
  }, [pathname]);

  // The header's user info answering 401 (even after a refresh): tokens removed, go to /login.
  useEffect(() => {
    if (isHttpError(user.error, 401)) {
      clearTokens();
      navigate('/login');
    }
  }, [user.error, navigate]);

  const live = isLivePath(pathname);
  return (
    <>
      <a className={styles.skip} href="#main">
        {APP_TEXTS.skipToContent}
      </a>
      <ScrollToTop />
      <DocumentTitle />
      <NavigationProgress />
      <Header
        bell={
          <Suspense fallback={null}>
            <NotificationBell />
          </Suspense>
        }
        user={
          user.data ? { nickname: user.data.nickname, profileImagePath: user.data.profile_image_path } : null
        }
      />
      <main id="main" className={live ? styles.live : styles.main}>
        <Outlet />
      </main>
      {!live && <BottomNav />}
    </>
  );
}
