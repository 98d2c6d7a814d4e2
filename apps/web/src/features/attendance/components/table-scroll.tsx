import type { ReactNode } from 'react';
import styles from './attendance.module.css';

/**
 * A table's frame that scrolls sideways when the table is wider than the card (a phone). It can take focus, so
 * the keyboard scrolls it too, and is named after its table.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.scroll} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
