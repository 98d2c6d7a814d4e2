import type { RecordingState } from '@sea/contract/live';
import { LIVE_TEXTS } from '../texts.ts';
import styles from './live.module.css';

/**
 * Whether the lecture is being recorded, the same for teacher and students (nobody is recorded unknowingly): a
 * red '녹화 중' dot while recording, '녹화 일시정지' while paused. The teacher also sees '녹화하지 않음'; a
 * student sees nothing for a lecture that is not recorded.
 */
export function RecordingIndicator({
  state,
  audience,
}: {
  state: RecordingState | null;
  audience: 'teacher' | 'student';
}) {
  if (!state || (!state.recording && audience === 'student')) return null;
  const texts = LIVE_TEXTS.recording;
  const text = !state.recording
    ? texts.off
    : audience === 'teacher'
      ? state.paused
        ? texts.paused
        : texts.on
      : state.paused
        ? texts.studentPaused
        : texts.studentOn;
  const live = state.recording && !state.paused;
  return (
    <span
      role="status"
      aria-label={texts.label}
      className={live ? styles.recording : styles.recordingIdle}
      data-recording={live ? 'on' : state.recording ? 'paused' : 'off'}
    >
      {state.recording && <span aria-hidden="true" className={styles.recordingDot} />}
      {text}
    </span>
  );
}
