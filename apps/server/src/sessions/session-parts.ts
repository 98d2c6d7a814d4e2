import { and, asc, desc, eq, isNotNull, isNull, ne, notExists } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { liveSessions, sessionParts } from '../db/schema.ts';

/** One room of a session: its raw recording's key and when it started (see `session_parts`). */
export type SessionPart = { mediaKey: string; startedAt: Date };

/**
 * A room that the class's teacher opened on `nodeId` after the room of the class's open session went away with
 * its node continues that session there: the session (its id, start, attendance, chat) stays and moves to this
 * room, and both rooms are kept as its parts, in order. The open session is continued when the room is an edge
 * room taken over (`takenOver`: the origin died under it, so the session is on another node), or when its node
 * handed it over (stopped, found dead, or back after a crash: `handover_at`), on any node, the same one too: a
 * media service that died and came back within the wait goes on with the lecture it lost. Nothing changes when
 * the room is known already (a later report of it), or when no such session is open (the room is a session of
 * its own). Answers whether the room continued a session.
 */
export async function continueSession(
  db: Executor,
  nodeId: string,
  room: { classId: number; mediaKey: string; startedAt: Date; recording: boolean; takenOver?: boolean },
): Promise<boolean> {
  const [current] = await db
    .select({ id: liveSessions.id })
    .from(liveSessions)
    .where(eq(liveSessions.mediaKey, room.mediaKey));
  if (current !== undefined) return false;
  const [known] = await db
    .select({ id: sessionParts.id })
    .from(sessionParts)
    .where(eq(sessionParts.mediaKey, room.mediaKey));
  if (known !== undefined) return false;
  const [open] = await db
    .select({
      id: liveSessions.id,
      mediaKey: liveSessions.mediaKey,
      nodeId: liveSessions.nodeId,
      startedAt: liveSessions.startedAt,
    })
    .from(liveSessions)
    .where(
      and(
        eq(liveSessions.classId, room.classId),
        isNull(liveSessions.endedAt),
        room.takenOver === true ? ne(liveSessions.nodeId, nodeId) : isNotNull(liveSessions.handoverAt),
      ),
    )
    .orderBy(desc(liveSessions.startedAt))
    .limit(1)
    .for('update');
  if (open === undefined) return false;
  // Its first room becomes a part the first time it moves (a session held in one room has no parts).
  await db
    .insert(sessionParts)
    .values({ sessionId: open.id, mediaKey: open.mediaKey, nodeId: open.nodeId, startedAt: open.startedAt })
    .onConflictDoNothing();
  await db
    .insert(sessionParts)
    .values({ sessionId: open.id, mediaKey: room.mediaKey, nodeId, startedAt: room.startedAt });
  // Recorded when either room is (an open session's state is `none` or `recording`).
  const recording = room.recording ? { recordingState: 'recording' } : {};
  await db
    .update(liveSessions)
    .set({ mediaKey: room.mediaKey, nodeId, handoverAt: null, ...recording })
    .where(eq(liveSessions.id, open.id));
  return true;
}

/**
 * Keeps the open session of a room closed by its node's stop (`handover` in the report) open for its teacher's
 * room on another node to continue: it waits from the room's end, and the sweep ends it then if nobody
 * continued it (node-sweep.ts); the node's later reports leave it open. False when the room has no open
 * session (it closes as any).
 */
export async function handOver(db: Executor, mediaKey: string, endedAt: Date): Promise<boolean> {
  const rows = await db
    .update(liveSessions)
    .set({ handoverAt: endedAt })
    .where(and(eq(liveSessions.mediaKey, mediaKey), isNull(liveSessions.endedAt)))
    .returning({ id: liveSessions.id });
  return rows.length > 0;
}

/**
 * Hands over every open session of a node found gone (MediaNodes.gone) or back after a crash (a new run's
 * report), as of `at`. Answers the classes of the sessions handed over now.
 */
export async function handOverNode(db: Executor, nodeId: string, at: Date): Promise<number[]> {
  const rows = await db
    .update(liveSessions)
    .set({ handoverAt: at })
    .where(
      and(eq(liveSessions.nodeId, nodeId), isNull(liveSessions.endedAt), isNull(liveSessions.handoverAt)),
    )
    .returning({ classId: liveSessions.classId });
  return rows.map((row) => row.classId);
}

/**
 * Whether `mediaKey` names a room its session has left (taken over elsewhere): a node still reporting it (it
 * did not die after all) has its room closed, and nothing new is recorded for it.
 */
export async function isLeftRoom(db: Executor, mediaKey: string): Promise<boolean> {
  const [row] = await db
    .select({ id: sessionParts.id })
    .from(sessionParts)
    .where(
      and(
        eq(sessionParts.mediaKey, mediaKey),
        notExists(db.select().from(liveSessions).where(eq(liveSessions.mediaKey, mediaKey))),
      ),
    );
  return row !== undefined;
}

/** The rooms of a session in order: its parts, or its one room. */
export async function sessionRooms(
  db: Executor,
  session: { id: number; mediaKey: string; startedAt: Date },
): Promise<SessionPart[]> {
  const parts = await db
    .select({ mediaKey: sessionParts.mediaKey, startedAt: sessionParts.startedAt })
    .from(sessionParts)
    .where(eq(sessionParts.sessionId, session.id))
    .orderBy(asc(sessionParts.id));
  return parts.length > 0 ? parts : [{ mediaKey: session.mediaKey, startedAt: session.startedAt }];
}
