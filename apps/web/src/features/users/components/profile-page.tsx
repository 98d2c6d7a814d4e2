import { useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { AccountMenu } from '../../../components/ui/account-menu.tsx';
import { MyClassroomBreadcrumb } from '../../../components/ui/my-classroom-breadcrumb.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { logout } from '../../../lib/logout.ts';
import { USER_TEXTS } from '../texts.ts';
import { ProfileForm } from './profile-form.tsx';
import styles from './profile-page.module.css';

/**
 * `/edit-info`: profile settings beside the same side menu as my page. A 401 that outlived the client's
 * refresh (the refresh could not reach the server) logs out and goes to /login with the catalogue's text;
 * when the refresh itself was refused the tokens are gone already and the route guard goes to /login.
 */
export function ProfilePage({
  below,
}: {
  /** What the route adds under the form once the user is known (the calendar feed). */
  below?: ReactNode;
} = {}) {
  const user = useCurrentUser();
  const notify = useNotify();
  const navigate = useNavigate();
  const unauthorised = isHttpError(user.error, 401);

  useEffect(() => {
    if (!unauthorised) return;
    notify(USER_TEXTS.authFailed, { tone: 'error' });
    logout();
    navigate(paths.login.to(), { replace: true });
  }, [unauthorised, notify, navigate]);

  let content;
  if (user.data) content = <ProfileForm key={user.data.id} user={user.data} />;
  else if (user.isError && !unauthorised) {
    content = (
      <p role="alert" className={styles.error}>
        {USER_TEXTS.loadFailed}
      </p>
    );
  } else content = <Spinner label={USER_TEXTS.loading} />;

  return (
    <Page>
      <MyClassroomBreadcrumb items={[{ label: USER_TEXTS.title }]} />
      <div className={styles.layout}>
        <aside className={styles.menu}>
          <AccountMenu />
        </aside>
        <section className={styles.content} aria-labelledby="profile-title">
          <h1 id="profile-title" className={styles.title}>
            {USER_TEXTS.title}
          </h1>
          <p className={styles.lead}>{USER_TEXTS.lead}</p>
          {content}
          {user.data && below}
        </section>
      </div>
    </Page>
  );
}
