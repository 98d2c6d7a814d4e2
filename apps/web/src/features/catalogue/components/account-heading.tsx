import { useEffect } from 'react';
import { Link } from 'react-router';
import { EditIcon } from '../../../components/ui/icons.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { CATALOGUE_TEXTS } from '../texts.ts';
import styles from './account-heading.module.css';

/**
 * The heading of my page and the classroom with the edit-profile icon (to /edit-info). A 401 on the user
 * info says so; the app frame then removes the tokens and goes to /login.
 */
export function AccountHeading({ title }: { title: (nickname: string) => string }) {
  const user = useCurrentUser();
  const notify = useNotify();
  useEffect(() => {
    if (isHttpError(user.error, 401)) notify(CATALOGUE_TEXTS.authFailed, { tone: 'error' });
  }, [user.error, notify]);

  return (
    <div className={styles.heading}>
      <h1 className={styles.title}>{title(user.data?.nickname ?? '')}</h1>
      <Link to="/edit-info" className={styles.edit} aria-label={CATALOGUE_TEXTS.editProfile}>
        <EditIcon />
      </Link>
    </div>
  );
}
