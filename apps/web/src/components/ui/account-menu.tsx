import { NavLink, useNavigate } from 'react-router';
import { logout } from '../../lib/logout.ts';
import { useNotify } from './use-notify.ts';
import { UI_TEXTS } from './texts.ts';
import styles from './account-menu.module.css';

/**
 * The side menu of my page, the classroom and profile settings: the two class lists and logout
 * (tokens removed, go to /).
 */
export function AccountMenu() {
  const navigate = useNavigate();
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
          logout();
          notify(UI_TEXTS.loggedOut);
          navigate('/');
        }}
      >
        {UI_TEXTS.logout}
      </button>
    </nav>
  );
}
