import { CLASSROOM_TEXTS as T } from '../texts.ts';
import styles from './classroom.module.css';

const CHOICES = [0, 10, 30, 60] as const;

export type SlowModeSelectProps = { seconds: number; disabled: boolean; onChange: (seconds: number) => void };

/** The teacher's slow mode: off, or one message per 10, 30 or 60 seconds per student. */
export function SlowModeSelect({ seconds, disabled, onChange }: SlowModeSelectProps) {
  return (
    <label className={styles.slowMode}>
      {T.slowMode}
      <select value={seconds} disabled={disabled} onChange={(event) => onChange(Number(event.target.value))}>
        {CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {choice === 0 ? T.slowModeOff : T.slowModeSeconds(choice)}
          </option>
        ))}
      </select>
    </label>
  );
}
