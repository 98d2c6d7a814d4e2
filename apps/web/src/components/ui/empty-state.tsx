import type { ReactNode } from 'react';
import emptySea from '../../assets/empty-sea.svg';
import { UI_TEXTS } from './texts.ts';
import styles from './empty-state.module.css';

/** A picture of a quiet sea with a message, for lists with nothing in them. */
export function EmptyState({
  message = UI_TEXTS.emptyDefault,
  children,
}: {
  message?: string;
  children?: ReactNode;
}) {
  return (
    <div className={styles.empty}>
      <img src={emptySea} alt="" width={200} height={133} />
      <p className={styles.message}>{message}</p>
      {children}
    </div>
  );
}
