import { and, eq } from 'drizzle-orm';
import { WATCH_CREDIT_MAX_S, type WatchBeat, type WatchState } from '@sea/contract/sessions';
import type { Database, Executor } from '../db/database.ts';
import { replayWatches } from '../db/schema.ts';

/**
 * Credits one beat of a member's replay player. The time since this member's previous beat for the session
 * counts, at most {@link WATCH_CREDIT_MAX_S}, and only when the player was playing at that beat and is playing
 * now. Beats are credited one at a time per member and session (the row is locked), and each measures the wall
 * clock since the previous one, whatever tab sent it: two tabs playing at once never count more than the time
 * that passed, and a seek (a jump of the position) counts nothing but the time really spent playing.
 * `position_s` becomes the resume point. A member's watch time never passes the replay's length (`lengthMs`,
 * when known): playing it twice, or beats sent with no player at all, credit no more than watching it once.
 */
export async function creditBeat(
  db: Database,
  sessionId: number,
  userId: string,
  beat: WatchBeat,
  now = new Date(),
  lengthMs: number | null = null,
): Promise<WatchState> {
  return db.transaction(async (tx) => {
    await tx
      .insert(replayWatches)
      .values({ sessionId, userId, lastBeatAt: now, playing: false, positionS: beat.position_s })
      .onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(replayWatches)
      .where(and(eq(replayWatches.sessionId, sessionId), eq(replayWatches.userId, userId)))
      .for('update');
    if (row === undefined) throw new Error('replay watch row vanished');
    const sinceMs = now.getTime() - row.lastBeatAt.getTime();
    const creditMs =
      row.playing && beat.playing ? Math.max(0, Math.min(sinceMs, WATCH_CREDIT_MAX_S * 1000)) : 0;
    const [updated] = await tx
      .update(replayWatches)
      .set({
        watchedMs: Math.min(row.watchedMs + Math.round(creditMs), lengthMs ?? Number.MAX_SAFE_INTEGER),
        positionS: beat.position_s,
        playing: beat.playing,
        // A beat from a clock behind the last one never moves the last beat back.
        lastBeatAt: sinceMs >= 0 ? now : row.lastBeatAt,
      })
      .where(and(eq(replayWatches.sessionId, sessionId), eq(replayWatches.userId, userId)))
      .returning();
    if (updated === undefined) throw new Error('replay watch row vanished');
    return { watched_s: Math.floor(updated.watchedMs / 1000), position_s: updated.positionS };
  });
}

/** Where the member left off in the session's replay (seconds), 0 if never watched. */
export async function resumePoint(db: Executor, sessionId: number, userId: string): Promise<number> {
  const [row] = await db
    .select({ positionS: replayWatches.positionS })
    .from(replayWatches)
    .where(and(eq(replayWatches.sessionId, sessionId), eq(replayWatches.userId, userId)));
  return row?.positionS ?? 0;
}
