import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { MEDIA_NODE_TIMEOUT_MS } from '@sea/contract/media-nodes';
import type { Database, Executor } from '../db/database.ts';
import { closeAttendance, leaveNodeAttendance } from '../attendance/attendance-store.ts';
import { attendance, classes, liveSessions, mediaNodes } from '../db/schema.ts';
import type { EndedSession } from '../plugins/events.ts';
import { endHandedOver, endNodeSessions, markNotLiveUnlessOpen } from '../sessions/session-store.ts';

/**
 * Ends the open sessions of every media node silent for longer than `timeoutMs`, at the time it was last heard
 * of (and the stays of the students it listed, an edge's too), and sets their classes not live (unless another session of theirs is open). Each node is handled in a
 * transaction that holds its row and checks its silence again, so a report arriving meanwhile wins; several
 * API servers may sweep at once and each session still ends once.
 */
export async function sweepSilentNodes(
  db: Database,
  now = new Date(),
  timeoutMs = MEDIA_NODE_TIMEOUT_MS,
): Promise<EndedSession[]> {
  const cutoff = new Date(now.getTime() - timeoutMs);
  const holding = await db
    .selectDistinct({ id: mediaNodes.id })
    .from(mediaNodes)
    .innerJoin(liveSessions, and(eq(liveSessions.nodeId, mediaNodes.id), isNull(liveSessions.endedAt)))
    .where(lt(mediaNodes.lastSeenAt, cutoff));
  // An edge holds no session, only its students' stays in the origin's.
  const relaying = await db
    .selectDistinct({ id: mediaNodes.id })
    .from(mediaNodes)
    .innerJoin(attendance, and(eq(attendance.nodeId, mediaNodes.id), isNull(attendance.leftAt)))
    .where(lt(mediaNodes.lastSeenAt, cutoff));
  const silent = [...new Map([...holding, ...relaying].map((node) => [node.id, node])).values()];
  const ended: EndedSession[] = [];
  for (const { id } of silent) {
    ended.push(
      ...(await db.transaction(async (tx) => {
        const [node] = await tx
          .select({ lastSeenAt: mediaNodes.lastSeenAt })
          .from(mediaNodes)
          .where(and(eq(mediaNodes.id, id), lt(mediaNodes.lastSeenAt, cutoff)))
          .for('update');
        if (node === undefined) return [];
        const sessions = await endNodeSessions(tx, id, [], node.lastSeenAt);
        await leaveNodeAttendance(tx, id, [], node.lastSeenAt);
        await markNotLiveUnlessOpen(
          tx,
          sessions.map((session) => session.classId),
        );
        return sessions;
      })),
    );
  }
  return ended;
}

/**
 * Ends the sessions handed over (their node stopped, or was found gone) longer than `timeoutMs` ago that no
 * room on another node continued, when their room went away, with their stays; their classes stop being live
 * unless another session of theirs is open.
 */
export async function sweepHandedOver(
  db: Database,
  now = new Date(),
  timeoutMs = MEDIA_NODE_TIMEOUT_MS,
): Promise<EndedSession[]> {
  return db.transaction(async (tx) => {
    const sessions = await endHandedOver(tx, new Date(now.getTime() - timeoutMs));
    for (const session of sessions) await closeAttendance(tx, session.id, session.endedAt);
    await markNotLiveUnlessOpen(
      tx,
      sessions.map((session) => session.classId),
    );
    return sessions;
  });
}

/**
 * Sets not live every class that has no open session on a media node heard from within `timeoutMs`: after a
 * stop or crash of the platform, nothing stays live that nobody broadcasts (run at start, after
 * {@link sweepSilentNodes}). A class set live by `PATCH isActive` alone is reset too. Answers the classes reset.
 */
export async function resetOrphanLive(
  db: Database,
  now = new Date(),
  timeoutMs = MEDIA_NODE_TIMEOUT_MS,
): Promise<number[]> {
  const cutoff = new Date(now.getTime() - timeoutMs);
  const fresh = db
    .select({ one: sql`1` })
    .from(liveSessions)
    .innerJoin(mediaNodes, eq(mediaNodes.id, liveSessions.nodeId))
    .where(
      and(
        eq(liveSessions.classId, classes.id),
        isNull(liveSessions.endedAt),
        gte(mediaNodes.lastSeenAt, cutoff),
      ),
    );
  const reset = await db
    .update(classes)
    .set({ isActive: false })
    .where(and(eq(classes.isActive, true), sql`not exists ${fresh}`))
    .returning({ id: classes.id });
  return reset.map((row) => row.id);
}

/**
 * Sets these classes not live unless a session of theirs is open and not handed over (running on a node):
 * a class whose sessions wait for their teacher after their node died is not shown live meanwhile. Answers the
 * classes set not live.
 */
export async function markNotLiveWhileWaiting(db: Executor, classIds: number[]): Promise<number[]> {
  if (classIds.length === 0) return [];
  const running = db
    .select({ one: sql`1` })
    .from(liveSessions)
    .where(
      and(
        eq(liveSessions.classId, classes.id),
        isNull(liveSessions.endedAt),
        isNull(liveSessions.handoverAt),
      ),
    );
  const rows = await db
    .update(classes)
    .set({ isActive: false })
    .where(and(inArray(classes.id, classIds), eq(classes.isActive, true), sql`not exists ${running}`))
    .returning({ id: classes.id });
  return rows.map((row) => row.id);
}
