import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { isAuthFlowPath, isBackPath, isLivePath } from '../../config/paths.ts';
import { useLoggedIn } from '../../lib/use-logged-in.ts';
import { Avatar } from './avatar.tsx';
import { HeaderSearch } from './header-search.tsx';
import { BackIcon, ExitIcon } from './icons.tsx';
import { Logo } from './logo.tsx';
import { UI_TEXTS } from './texts.ts';
import styles from './header.module.css';

// Only live rooms need the dialog: load it (and Radix) when someone presses exit, not on every page.
const ConfirmDialog = lazy(() =>
  import('./confirm-dialog.tsx').then((module) => ({ default: module.ConfirmDialog })),
);

export type HeaderUser = { nickname: string; profileImagePath: string | null };

/** Where the exit button of a live room leads: the dashboard of the same role and class. */
export function liveExitTarget(pathname: string): string {
  const match = /^\/live\/(student|teacher)\/([^/]+)/.exec(pathname);
  return match ? `/dashboard/${match[1]}/${match[2]}` : '/';
}

/**
 * The top bar. Left: an exit button with a confirmation on live rooms, a back button on the pages the
 * spec lists, nothing elsewhere. Centre: the logo. Right (not during login and sign-up): the class search,
 * the notices' `bell` when logged in, and the user's avatar labelled 'my classroom' when logged in,
 * otherwise a login button.
 */
export function Header({ user, bell }: { user: HeaderUser | null; bell?: ReactNode }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const loggedIn = useLoggedIn();
  const [leaving, setLeaving] = useState(false);

  let left = null;
  if (isLivePath(pathname)) {
    left = (
      <button type="button" className={styles.iconButton} onClick={() => setLeaving(true)}>
        <ExitIcon />
        <span className="visually-hidden">{UI_TEXTS.exit}</span>
      </button>
    );
  } else if (isBackPath(pathname)) {
    left = (
      <button type="button" className={styles.iconButton} onClick={() => navigate(-1)}>
        <BackIcon />
        <span className="visually-hidden">{UI_TEXTS.back}</span>
      </button>
    );
  }

  let right = null;
  if (!isAuthFlowPath(pathname)) {
    right = loggedIn ? (
      <Link to="/mypage" className={styles.account}>
        {user ? (
          <Avatar name={user.nickname} src={user.profileImagePath} size={32} alt="" />
        ) : (
          // Until the user info arrives: a plain circle, not a default creature that turns into the real picture.
          <span className={styles.avatarPending} aria-hidden="true" />
        )}
        <span className={styles.accountLabel}>{UI_TEXTS.myClassroom}</span>
      </Link>
    ) : (
      <Link to="/login" className={styles.login}>
        {UI_TEXTS.login}
      </Link>
    );
  }

  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <div className={styles.left}>{left}</div>
        <div className={styles.centre}>
          <Logo />
        </div>
        <div className={styles.right}>
          {!isLivePath(pathname) && !isAuthFlowPath(pathname) && <HeaderSearch />}
          {loggedIn && !isLivePath(pathname) && !isAuthFlowPath(pathname) && bell}
          {right}
        </div>
      </div>
      {leaving && (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={leaving}
            onOpenChange={setLeaving}
            title={UI_TEXTS.leaveLiveTitle}
            body={UI_TEXTS.leaveLiveBody}
            confirmLabel={UI_TEXTS.leaveLiveConfirm}
            confirmVariant="danger"
            onConfirm={() => {
              setLeaving(false);
              navigate(liveExitTarget(pathname));
            }}
          />
        </Suspense>
      )}
    </header>
  );
}
