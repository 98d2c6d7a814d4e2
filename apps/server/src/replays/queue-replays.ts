import { and, eq, isNotNull, notExists, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { jobs, liveSessions } from '../db/schema.ts';
import { enqueueReplay, enqueueReplayAhead } from './enqueue-replay.ts';
import { REPLAY_JOB } from './replay-job.ts';

/**
 * Queues the replay of every ended session left `processing` without a waiting or running job: a session whose
 * end was stored but whose announcement was lost (the server stopped between the two). Answers how many.
 */
export async function queueWaitingReplays(db: Database): Promise<number> {
  const waiting = await db
    .select({ id: liveSessions.id })
    .from(liveSessions)
    .where(
      and(
        eq(liveSessions.recordingState, 'processing'),
        isNotNull(liveSessions.endedAt),
        notExists(
          db
            .select({ id: jobs.id })
            .from(jobs)
            .where(
              and(
                eq(jobs.key, sql`${`${REPLAY_JOB}:`} || ${liveSessions.id}::text`),
                sql`${jobs.state} in ('queued', 'running')`,
              ),
            ),
        ),
      ),
    );
  let queued = 0;
  for (const { id } of waiting) if ((await enqueueReplay(db, id)) !== null) queued += 1;
  return queued;
}

/**
 * A recorded session's replay is queued when the session ends (app.events' sessionEnded), and at start for
 * any ended session whose announcement was lost. Every API server queues; the queue's key keeps one job per
 * session.
 */
export function registerReplayQueueing(app: FastifyInstance): void {
  app.events.on('sessionEnded', async (session) => {
    if (session.recordingState === 'processing') await enqueueReplay(app.db, session.id);
  });
  // A recorded lecture's replay is made while it runs (replay-ahead.ts).
  app.events.on('recordingStarted', async (session) => {
    await enqueueReplayAhead(app.db, session.sessionId, app.config.jobs?.replayWindowMs);
  });
  app.addHook('onReady', async () => {
    const queued = await queueWaitingReplays(app.db);
    if (queued > 0) app.log.info({ queued }, 'queued the replays of sessions that ended unannounced');
  });
}
