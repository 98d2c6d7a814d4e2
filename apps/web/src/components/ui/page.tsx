import type { ReactNode } from 'react';
import styles from './page.module.css';

/** The page column: 400 px wide at window widths up to 1184 px, 1184 px above. */
export function Page({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={className ? `${styles.page} ${className}` : styles.page}>{children}</div>;
}
