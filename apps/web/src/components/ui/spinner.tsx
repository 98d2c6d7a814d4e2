import { UI_TEXTS } from './texts.ts';
import styles from './spinner.module.css';

/** A busy indicator with a text people and screen readers get. */
export function Spinner({ label = UI_TEXTS.loading }: { label?: string }) {
  return (
    <div className={styles.wrap} role="status">
      <span className={styles.spinner} aria-hidden="true" />
      <span className={styles.label}>{label}</span>
    </div>
  );
}
