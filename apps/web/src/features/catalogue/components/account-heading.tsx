import { useEffect } from 'react';
import { Link } from 'react-router';
import { EditIcon } from '../../../components/ui/icons.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { CATALOGUE_TEXTS } from '../texts.ts';
import styles from './account-heading.module.css';

export type AccountHeadingProps =
  | { title: string }
  | {
      /** A heading made with the nickname: a placeholder stands in while the user info loads. */
      title: (nickname: string) => string;
      /** The heading when the user info could not be loaded. */
      fallbackTitle: string;
    };

/**
 * The heading of my page and the classroom with the edit-profile icon (to /edit-info). A 401 on the user
 * info says so; the app frame then removes the tokens and goes to /login.
 */
export function AccountHeading(props: AccountHeadingProps) {
  const user = useCurrentUser();
  const notify = useNotify();
  useEffect(() => {
    if (isHttpError(user.error, 401)) notify(CATALOGUE_TEXTS.authFailed, { tone: 'error' });
  }, [user.error, notify]);

  let title;
  if (typeof props.title === 'string') title = props.title;
  else if (user.data) title = props.title(user.data.nickname);
  else if (user.isError && 'fallbackTitle' in props) title = props.fallbackTitle;

  return (
    <div className={styles.heading}>
      {title === undefined ? (
        <h1 className={styles.title} aria-busy="true">
          <span className={styles.placeholder} aria-hidden="true" />
          <span className="visually-hidden">{CATALOGUE_TEXTS.headingLoading}</span>
        </h1>
      ) : (
        <h1 className={styles.title}>{title}</h1>
      )}
      <Link to="/edit-info" className={styles.edit} aria-label={CATALOGUE_TEXTS.editProfile}>
        <EditIcon />
      </Link>
    </div>
  );
}
