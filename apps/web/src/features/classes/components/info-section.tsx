import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import styles from './info-section.module.css';

/** A titled block of class text; an empty text shows its fallback, greyed. */
export function InfoSection({
  title,
  text,
  fallback,
  children,
}: {
  title: string;
  text: string | null;
  fallback: string;
  children?: ReactNode;
}) {
  const value = text?.trim() ?? '';
  return (
    <Card title={title}>
      {children}
      {value ? (
        <p className={styles.text}>{value}</p>
      ) : (
        <p className={`${styles.text} ${styles.fallback}`}>{fallback}</p>
      )}
    </Card>
  );
}
