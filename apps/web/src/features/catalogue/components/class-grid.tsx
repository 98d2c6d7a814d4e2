import type { ReactNode } from 'react';
import styles from './class-grid.module.css';

/** A responsive grid of cards: 2 columns in the mobile column, 4 on the desktop layout. */
export function ClassGrid({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <ul className={styles.grid} aria-label={label}>
      {children}
    </ul>
  );
}
