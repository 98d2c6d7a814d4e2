import type { RecordingState } from '@sea/contract/live';
import { LIVE_TEXTS } from '../texts.ts';
import styles from './live.module.css';

type Shown = 'on' | 'paused' | 'stalled' | 'interrupted' | 'off';

function shown(state: RecordingState, interrupted: boolean): Shown {
  if (!state.recording) return 'off';
  // Cut off, the last word of the media service about its disk is no longer news; a pause still is.
  if (state.stalled && !interrupted) return 'stalled';
  if (state.paused) return 'paused';
  return interrupted ? 'interrupted' : 'on';
}

/**
 * Whether the lecture is being recorded, the same for teacher and students (nobody is recorded unknowingly): a
 * red '녹화 중' dot while recording, '녹화 일시정지' while paused, and while the media service cannot write the
 * recording (its disk is full or broken) '저장 공간이 부족해 녹화가 멈췄어요' until it resumes by itself; while the
 * room's connection is lost (`interrupted`), no red dot: nothing reaches the recording from this side. The
 * teacher also sees '녹화하지 않음'; a student sees nothing for a lecture that is not recorded.
 */
export function RecordingIndicator({
  state,
  audience,
  interrupted = false,
}: {
  state: RecordingState | null;
  audience: 'teacher' | 'student';
  interrupted?: boolean;
}) {
  if (!state || (!state.recording && audience === 'student')) return null;
  const texts = LIVE_TEXTS.recording;
  const now = shown(state, interrupted);
  const text = {
    teacher: {
      on: texts.on,
      paused: texts.paused,
      stalled: texts.stalled,
      interrupted: texts.interrupted,
      off: texts.off,
    },
    student: {
      on: texts.studentOn,
      paused: texts.studentPaused,
      stalled: texts.studentStalled,
      interrupted: texts.studentInterrupted,
      off: '',
    },
  }[audience][now];
  return (
    <span
      role="status"
      aria-label={texts.label}
      className={now === 'on' || now === 'stalled' ? styles.recording : styles.recordingIdle}
      data-recording={now}
    >
      {now === 'stalled' ? (
        <span aria-hidden="true">⚠</span>
      ) : (
        now !== 'interrupted' &&
        state.recording && <span aria-hidden="true" className={styles.recordingDot} />
      )}
      {text}
    </span>
  );
}
