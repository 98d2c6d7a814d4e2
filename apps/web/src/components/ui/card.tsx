import { useId } from 'react';
import type { ReactNode } from 'react';
import styles from './card.module.css';

/** A titled block on a raised surface (dashboards, class introduction, schedules); labelled by its title. */
export function Card({ title, children }: { title: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className={styles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        {title}
      </h2>
      {children}
    </section>
  );
}
