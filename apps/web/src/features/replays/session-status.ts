import type { RecordingGap, SessionRecording } from '@sea/contract/sessions';
import { formatClock } from '../../lib/format-date-time.ts';
import { REPLAY_TEXTS } from './texts.ts';

/** How a state label looks: `ready` is the link to the replay, `failed` and a waiting recording warn. */
export type SessionStatusTone = 'live' | 'busy' | 'ready' | 'muted' | 'failed';

export type SessionStatus = {
  label: string;
  tone: SessionStatusTone;
  /** 0..100 while processing, else null. */
  progress: number | null;
  /** Why the recording is not (yet) a replay, as the server says it, or null. */
  error: string | null;
};

/** The stretches a ready replay is missing, in lecture time ('녹화되지 않은 구간: 12:30-18:05'), or null. */
export function gapsText(recording: Pick<SessionRecording, 'state' | 'gaps'>): string | null {
  if (recording.state !== 'ready' || recording.gaps.length === 0) return null;
  const stretches = recording.gaps.map((gap) => `${formatClock(gap.from_s)}-${formatClock(gap.until_s)}`);
  return REPLAY_TEXTS.gaps(stretches.join(', '));
}

/** Where a gap sits on the replay's timeline, and what it says. */
export type GapMark = { atPercent: number; label: string };

/**
 * The gaps as marks on the replay's seek bar. The replay has them cut out, so each is a point: where the replay
 * cuts it (`at_s`, on the replay's clock: the teacher's pauses are cut out too) over the replay's length as the
 * player has it (`replayS`, the seek bar's own scale). Nothing while that length is unknown (0).
 */
export function gapMarks(gaps: readonly RecordingGap[], replayS: number): GapMark[] {
  if (!(replayS > 0)) return [];
  return gaps.map((gap) => ({
    atPercent: Math.round((Math.min(replayS, Math.max(0, gap.at_s)) / replayS) * 1000) / 10,
    label: REPLAY_TEXTS.gapMark(`${formatClock(gap.from_s)}-${formatClock(gap.until_s)}`),
  }));
}

/** True when the teacher can ask for the replay again: it failed, or it waits for a cause the server told. */
export function canRemake(recording: Pick<SessionRecording, 'state' | 'error'>): boolean {
  return (
    recording.state === 'failed' || (recording.state === 'processing' && Boolean(recording.error?.trim()))
  );
}

/** The state label of a session's recording: '녹화 중', '처리 중 42%', '다시보기', '녹화 안 함', '처리 실패'. */
export function sessionStatus(recording: SessionRecording): SessionStatus {
  const error = recording.error?.trim() || null;
  const texts = REPLAY_TEXTS.states;
  switch (recording.state) {
    case 'recording':
      return { label: texts.recording, tone: 'live', progress: null, error };
    case 'processing':
      return {
        label: texts.processing(recording.progress),
        tone: error === null ? 'busy' : 'failed',
        progress: recording.progress,
        error,
      };
    case 'ready':
      return { label: texts.ready, tone: 'ready', progress: null, error: null };
    case 'failed':
      return { label: texts.failed, tone: 'failed', progress: null, error };
    case 'none':
      return { label: texts.none, tone: 'muted', progress: null, error: null };
  }
}
