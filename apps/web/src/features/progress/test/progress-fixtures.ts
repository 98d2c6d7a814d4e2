import type { ClassProgress, SessionProgress } from '@sea/contract/progress';

/** A replay's progress row with the given fields. */
export function sessionProgress(fields: Partial<SessionProgress> & { session_id: number }): SessionProgress {
  return {
    title: null,
    started_at: '2026-11-17T10:00:00.000Z',
    length_ms: 600_000,
    percent: 0,
    last_position_ms: 0,
    completed: false,
    last_watched_at: null,
    ...fields,
  };
}

/** A class of three replays: the first completed, the second half watched (watched last), the third untouched. */
export function classProgress(): ClassProgress {
  return {
    class_percent: 50,
    sessions: [
      sessionProgress({
        session_id: 1,
        title: '1강',
        percent: 95,
        completed: true,
        last_watched_at: '2026-11-20T10:00:00.000Z',
      }),
      sessionProgress({
        session_id: 2,
        title: '2강',
        percent: 55,
        last_position_ms: 330_000,
        last_watched_at: '2026-11-21T10:00:00.000Z',
      }),
      sessionProgress({ session_id: 3, title: '3강' }),
    ],
  };
}
