import { and, eq } from 'drizzle-orm';
import { WATCH_CREDIT_MAX_S, WATCH_MAX_RATE, type WatchBeat, type WatchState } from '@sea/contract/sessions';
import type { Database, Executor } from '../db/database.ts';
import { replayWatches } from '../db/schema.ts';
import { addSpan, countSeconds, lengthSeconds } from './watched-spans.ts';

/** A beat ending this close to the replay's end (the player rounds its position) counts its last second. */
const END_SLACK_S = 0.5;

/**
 * The seconds `[start, end)` of the video a beat credits, or null: the stretch this tab played since its last
 * beat (`from_s`, or the member's last position when the tab did not say), at most the wall clock since the
 * member's previous beat ({@link WATCH_CREDIT_MAX_S} at most) times {@link WATCH_MAX_RATE}. A stretch that runs
 * backwards or faster than that is a seek: the wall-clock time counts from where the tab was, at normal speed.
 */
export function beatSpan(
  beat: WatchBeat,
  last: { positionS: number; playing: boolean },
  sinceMs: number,
  lengthMs: number | null,
): [number, number] | null {
  if (!beat.playing || (beat.from_s === undefined && !last.playing)) return null;
  const creditS = Math.max(0, Math.min(sinceMs, WATCH_CREDIT_MAX_S * 1000)) / 1000;
  const from = beat.from_s ?? last.positionS;
  const played = beat.position_s - from;
  const to = played < 0 || played > creditS * WATCH_MAX_RATE ? from + creditS : beat.position_s;
  const endS = lengthMs === null ? Number.POSITIVE_INFINITY : lengthSeconds(lengthMs);
  const end = to >= endS - END_SLACK_S ? endS : Math.floor(to);
  const start = Math.floor(from);
  return end > start ? [start, end] : null;
}

/**
 * Credits one beat of a member's replay player: the seconds of {@link beatSpan} join the seconds the member
 * already played, each second counted once (playing a part twice, seeking back and forth or several tabs
 * never count a second again, and never more than the replay's `lengthMs` when known). Beats are credited one
 * at a time per member and session (the row is locked), and each measures the wall clock since the previous
 * one, whatever tab sent it. `position_s` becomes the resume point.
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
    const span = beatSpan(beat, row, sinceMs, lengthMs);
    const watched = span === null ? row.watched : addSpan(row.watched, span[0], span[1]);
    const [updated] = await tx
      .update(replayWatches)
      .set({
        watched,
        positionS: beat.position_s,
        playing: beat.playing,
        // A beat from a clock behind the last one never moves the last beat back.
        lastBeatAt: sinceMs >= 0 ? now : row.lastBeatAt,
      })
      .where(and(eq(replayWatches.sessionId, sessionId), eq(replayWatches.userId, userId)))
      .returning();
    if (updated === undefined) throw new Error('replay watch row vanished');
    return { watched_s: countSeconds(updated.watched), position_s: updated.positionS };
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
