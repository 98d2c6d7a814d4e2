import { NavLink } from 'react-router';
import { useLogOutTo } from '../../lib/use-log-out-to.ts';
import { useNotify } from './use-notify.ts';
import { UI_TEXTS } from './texts.ts';
import styles from './account-menu.module.css';

/**
 * The side menu of my page, the classroom and profile settings: the two class lists and logout
 * (tokens removed, go to /).
 */
export function AccountMenu() {
  const logOutTo = useLogOutTo();
  const notify = useNotify();
  return (
    <nav className={styles.menu} aria-label={UI_TEXTS.accountMenuLabel}>
      <NavLink
        to="/mypage"
        className={({ isActive }) => (isActive ? `${styles.item} ${styles.active}` : styles.item)}
      >
        {UI_TEXTS.classesIOpened}
      </NavLink>
      <NavLink
        to="/classroom"
        className={({ isActive }) => (isActive ? `${styles.item} ${styles.active}` : styles.item)}
      >
        {UI_TEXTS.classesITake}
      </NavLink>
      <button
        type="button"
        className={styles.item}
        onClick={() => {
          notify(UI_TEXTS.loggedOut);
          void logOutTo('/');
        }}
      >
        {UI_TEXTS.logout}
      </button>
    </nav>
  );
}
