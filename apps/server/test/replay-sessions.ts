import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { jobs, liveSessions } from '../src/db/schema.ts';

/**
 * A session that ended recorded (or, `live`, is being recorded), in room `mediaKey` (its raw recording's
 * folder).
 */
export async function recordedSession(
  app: FastifyInstance,
  classId: number,
  mediaKey: string,
  options: { live?: boolean } = {},
): Promise<number> {
  const [row] = await app.db
    .insert(liveSessions)
    .values({
      classId,
      mediaKey,
      nodeId: 'media-1',
      startedAt: new Date(Date.now() - 60_000),
      endedAt: options.live ? null : new Date(),
      recordingState: 'recording',
    })
    .returning({ id: liveSessions.id });
  return row?.id ?? 0;
}

/** The session's row as the database holds it now. */
export async function sessionRow(app: FastifyInstance, sessionId: number) {
  const [row] = await app.db.select().from(liveSessions).where(eq(liveSessions.id, sessionId));
  if (!row) throw new Error(`no session ${sessionId}`);
  return row;
}

/** The session's replay job as the queue holds it now. */
export async function replayJobRow(app: FastifyInstance, sessionId: number) {
  const [row] = await app.db
    .select()
    .from(jobs)
    .where(eq(jobs.key, `replay:${sessionId}`));
  return row;
}

/**
 * Polls the session's row until `done` says so (every 100 ms, at most `timeoutMs`); answers the row. Fails with
 * the last row seen.
 */
export async function sessionUntil(
  app: FastifyInstance,
  sessionId: number,
  done: (row: Awaited<ReturnType<typeof sessionRow>>) => boolean,
  timeoutMs = 90_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await sessionRow(app, sessionId);
    if (done(row)) return row;
    if (Date.now() > deadline) {
      throw new Error(
        `session ${sessionId} never got there: ${row.recordingState} ${row.recordingError ?? ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The job worker's tuning for tests that run replay jobs and their retries: polled every 100 ms, retried after
 * 2-4 s. The stall bounds are long enough for a real encode to start on a busy two-core machine; a hang is
 * still found in seconds.
 */
export const QUICK_REPLAY_JOBS = {
  pollMs: 100,
  leaseMs: 30_000,
  retryDelayMs: 2_000,
  retryMaxMs: 4_000,
  stallMinMs: 10_000,
  stallMaxMs: 15_000,
  spaceCheckMs: 200,
};
