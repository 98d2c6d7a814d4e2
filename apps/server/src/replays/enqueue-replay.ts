import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { liveSessions } from '../db/schema.ts';
import { enqueueJob } from '../jobs/job-queue.ts';
import { REPLAY_JOB, type ReplayPayload } from './replay-job.ts';
import { WINDOW_MS } from './replay-windows.ts';

/**
 * Attempts of one replay before it is marked failed. Many: a failure of the machine (a full disk, ffmpeg
 * missing, a hung encoder) is retried with a backoff up to half an hour, so for about half a day; a damaged
 * recording fails at once, and a failure of no known cause after three attempts (replay-job.ts).
 */
export const REPLAY_ATTEMPTS = 40;

/** The queue's key of a session's replay job: one waiting or running at a time. */
export const replayJobKey = (sessionId: number) => `${REPLAY_JOB}:${sessionId}`;

/**
 * Queues the processing of a session's recording into its replay, for the session lifecycle to call when a
 * recorded session ends (and for a retry of a failed one). Sets the session `processing` (progress 0) if it
 * was `recording`, `processing` or `failed`; any other state (`none`, `ready`) is left alone and nothing is
 * queued. Queueing twice while a job is waiting or running adds nothing. Takes a transaction, so the session's
 * end and its job are written together. Returns the job's id, or null when none was added.
 */
export async function enqueueReplay(db: Executor, sessionId: number): Promise<number | null> {
  const [session] = await db
    .update(liveSessions)
    .set({ recordingState: 'processing', recordingProgress: 0, recordingError: null })
    .where(
      and(
        eq(liveSessions.id, sessionId),
        inArray(liveSessions.recordingState, ['recording', 'processing', 'failed']),
      ),
    )
    .returning({ id: liveSessions.id });
  if (!session) return null;
  const payload: ReplayPayload = { sessionId };
  return enqueueJob(db, REPLAY_JOB, payload, {
    key: replayJobKey(sessionId),
    maxAttempts: REPLAY_ATTEMPTS,
  });
}

/** The queue's name of the job that encodes a lecture's replay while it runs (replay-ahead.ts). */
export const REPLAY_AHEAD_JOB = 'replay-ahead';

export const replayAheadKey = (sessionId: number) => `${REPLAY_AHEAD_JOB}:${sessionId}`;

/**
 * Queues the replay-ahead job of a recorded session that has started (one waiting or running at a time), its
 * first run after one window of lecture: queueing twice adds nothing.
 */
export async function enqueueReplayAhead(
  db: Executor,
  sessionId: number,
  windowMs = WINDOW_MS,
): Promise<number | null> {
  return enqueueJob(
    db,
    REPLAY_AHEAD_JOB,
    { sessionId },
    { key: replayAheadKey(sessionId), maxAttempts: 3, runAt: new Date(Date.now() + windowMs) },
  );
}
