import { and, asc, desc, eq, isNull, ne, notExists } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { liveSessions, sessionParts } from '../db/schema.ts';

/** One room of a session: its raw recording's key and when it started (see `session_parts`). */
export type SessionPart = { mediaKey: string; startedAt: Date };

/**
 * A room taken over on `nodeId` after its class's origin node died continues the class's open session there:
 * the session (its id, start, attendance, chat) stays and moves to this room, and both rooms are kept as its
 * parts, in order. Nothing changes when the room is known already (a later report of it), or when no session of
 * the class is open on another node (the origin's session ended already: the room is a session of its own).
 */
export async function continueSession(
  db: Executor,
  nodeId: string,
  room: { classId: number; mediaKey: string; startedAt: Date; recording: boolean },
): Promise<void> {
  const [known] = await db
    .select({ id: sessionParts.id })
    .from(sessionParts)
    .where(eq(sessionParts.mediaKey, room.mediaKey));
  const [current] = await db
    .select({ id: liveSessions.id })
    .from(liveSessions)
    .where(eq(liveSessions.mediaKey, room.mediaKey));
  if (known !== undefined || current !== undefined) return;
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
        ne(liveSessions.nodeId, nodeId),
      ),
    )
    .orderBy(desc(liveSessions.startedAt))
    .limit(1)
    .for('update');
  if (open === undefined) return;
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
    .set({ mediaKey: room.mediaKey, nodeId, ...recording })
    .where(eq(liveSessions.id, open.id));
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
