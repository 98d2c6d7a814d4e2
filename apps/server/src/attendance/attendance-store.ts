import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { attendance, liveSessions, users } from '../db/schema.ts';

/** A stay's end: `at`, never before it began. */
const leftAt = (at: Date) => sql`greatest(${attendance.joinedAt}, ${at.toISOString()}::timestamptz)`;

/** The students a media node lists in one session's room now: its own room, or its edge room of the class. */
export type RoomPresence = { sessionId: number; students: readonly string[] };

/**
 * Makes the attendance of an open session match who `nodeId` lists in its room, at `at` (when the report
 * came). A class may be served by several nodes (its origin and its edges), each listing only its own
 * students, so a node's report touches the rows it holds: a student listed without an open row joins (a new
 * row held by this node), a student listed whose open row another node holds moved here (the row stays open,
 * now held by this node: one stay, counted once), and a row this node holds whose student it no longer lists
 * is left. Students unknown to the database are not recorded. Runs inside the report's transaction.
 */
export async function syncAttendance(
  db: Executor,
  nodeId: string,
  room: RoomPresence,
  at: Date,
): Promise<void> {
  const [session] = await db
    .select({ nodeId: liveSessions.nodeId })
    .from(liveSessions)
    .where(and(eq(liveSessions.id, room.sessionId), isNull(liveSessions.endedAt)));
  if (session === undefined) return;
  const open = await db
    .select({ userId: attendance.userId, nodeId: attendance.nodeId })
    .from(attendance)
    .where(and(eq(attendance.sessionId, room.sessionId), isNull(attendance.leftAt)));
  const present = new Set(room.students);
  // Rows from before nodes were named in them belong to the session's own node.
  const holder = new Map(open.map((row) => [row.userId, row.nodeId ?? session.nodeId]));
  const leaving = [...holder].filter(([userId, node]) => node === nodeId && !present.has(userId));
  const moving = [...present].filter((userId) => holder.has(userId) && holder.get(userId) !== nodeId);
  const arriving = [...present].filter((userId) => !holder.has(userId));
  const ofSession = (userIds: string[]) =>
    and(
      eq(attendance.sessionId, room.sessionId),
      inArray(attendance.userId, userIds),
      isNull(attendance.leftAt),
    );
  if (leaving.length > 0) {
    await db
      .update(attendance)
      .set({ leftAt: leftAt(at) })
      .where(ofSession(leaving.map(([userId]) => userId)));
  }
  if (moving.length > 0) await db.update(attendance).set({ nodeId }).where(ofSession(moving));
  if (arriving.length > 0) {
    const known = await db.select({ id: users.id }).from(users).where(inArray(users.id, arriving));
    if (known.length > 0) {
      await db
        .insert(attendance)
        .values(known.map((user) => ({ sessionId: room.sessionId, userId: user.id, joinedAt: at, nodeId })))
        .onConflictDoNothing();
    }
  }
}

/**
 * Closes, at `at`, the open rows `nodeId` holds in sessions other than `keep`: the node no longer has a room
 * of their class (an edge stopped relaying it), or it went silent (the sweep: every row it held).
 */
export async function leaveNodeAttendance(
  db: Executor,
  nodeId: string,
  keep: readonly number[],
  at: Date,
): Promise<void> {
  await db
    .update(attendance)
    .set({ leftAt: leftAt(at) })
    .where(
      and(
        eq(attendance.nodeId, nodeId),
        isNull(attendance.leftAt),
        keep.length > 0 ? notInArray(attendance.sessionId, [...keep]) : undefined,
      ),
    );
}

/** Closes a session's open attendance rows at its end (everyone left when the lecture ended). */
export async function closeAttendance(db: Executor, sessionId: number, endedAt: Date): Promise<void> {
  await db
    .update(attendance)
    .set({ leftAt: leftAt(endedAt) })
    .where(and(eq(attendance.sessionId, sessionId), isNull(attendance.leftAt)));
}
