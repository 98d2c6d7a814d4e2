import { useId } from 'react';
import { LIVE_TEXTS } from '../texts.ts';
import styles from './live.module.css';

const T = LIVE_TEXTS.dataSaving;

/** The student's '데이터 절약 모드' switch with its one-line explanation (what is held back, what stays). */
export function DataSavingSwitch({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  const hintId = useId();
  return (
    <span className={styles.dataSaving}>
      <label className={styles.dataSavingLabel}>
        <input
          type="checkbox"
          role="switch"
          checked={on}
          aria-checked={on}
          aria-describedby={hintId}
          onChange={(event) => onChange(event.target.checked)}
        />
        {T.label}
      </label>
      <span id={hintId} className={styles.dataSavingHint}>
        {T.hint}
      </span>
    </span>
  );
}
