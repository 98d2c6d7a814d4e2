import { Link } from 'react-router';
import logoMark from '../../assets/logo-mark.svg';
import { UI_TEXTS } from './texts.ts';
import styles from './logo.module.css';

/** The app's logo; always a link home. */
export function Logo() {
  return (
    <Link to="/" className={styles.logo} aria-label={UI_TEXTS.logoLabel}>
      <img src={logoMark} alt="" width={32} height={32} />
      <span className={styles.word} aria-hidden="true">
        {UI_TEXTS.appName}
      </span>
    </Link>
  );
}
