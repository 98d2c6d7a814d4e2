import type { ReactNode } from 'react';
import { Link } from 'react-router';
import styles from './section-header.module.css';

/** A section title with an optional 'see more' link and a leading mark (the live dot). */
export function SectionHeader({
  id,
  title,
  link,
  live = false,
  level = 2,
}: {
  id: string;
  title: ReactNode;
  link?: { to: string; label: string };
  live?: boolean;
  level?: 1 | 2;
}) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div className={styles.header}>
      <Heading id={id} className={styles.title}>
        {live && <span className={styles.dot} aria-hidden="true" />}
        {title}
      </Heading>
      {link && (
        <Link to={link.to} className={styles.link}>
          {link.label}
        </Link>
      )}
    </div>
  );
}
