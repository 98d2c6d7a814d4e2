import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { attendance, liveSessions, users } from '../db/schema.ts';

/** A room as a media node reports it: its session's key and the students in it now. */
export type RoomPresence = { sessionKey: string; students: readonly string[] };

/**
 * Makes the attendance of an open session match who a node's report lists in its room, at `at` (when the
 * report came): a student listed without an open row joins (a new row), an open row whose student is no
 * longer listed is left. Students unknown to the database are not recorded. Runs inside the report's
 * transaction, so reports of one node apply in order.
 */
export async function syncAttendance(db: Executor, room: RoomPresence, at: Date): Promise<void> {
  const [session] = await db
    .select({ id: liveSessions.id })
    .from(liveSessions)
    .where(and(eq(liveSessions.mediaKey, room.sessionKey), isNull(liveSessions.endedAt)));
  if (session === undefined) return;
  const open = await db
    .select({ userId: attendance.userId })
    .from(attendance)
    .where(and(eq(attendance.sessionId, session.id), isNull(attendance.leftAt)));
  const present = new Set(room.students);
  const inRoom = new Set(open.map((row) => row.userId));
  const leaving = [...inRoom].filter((userId) => !present.has(userId));
  const arriving = [...present].filter((userId) => !inRoom.has(userId));
  if (leaving.length > 0) {
    await db
      .update(attendance)
      .set({ leftAt: sql`greatest(${attendance.joinedAt}, ${at.toISOString()}::timestamptz)` })
      .where(
        and(
          eq(attendance.sessionId, session.id),
          inArray(attendance.userId, leaving),
          isNull(attendance.leftAt),
        ),
      );
  }
  if (arriving.length > 0) {
    const known = await db.select({ id: users.id }).from(users).where(inArray(users.id, arriving));
    if (known.length > 0) {
      await db
        .insert(attendance)
        .values(known.map((user) => ({ sessionId: session.id, userId: user.id, joinedAt: at })))
        .onConflictDoNothing();
    }
  }
}

/** Closes a session's open attendance rows at its end (everyone left when the lecture ended). */
export async function closeAttendance(db: Executor, sessionId: number, endedAt: Date): Promise<void> {
  await db
    .update(attendance)
    .set({ leftAt: sql`greatest(${attendance.joinedAt}, ${endedAt.toISOString()}::timestamptz)` })
    .where(and(eq(attendance.sessionId, sessionId), isNull(attendance.leftAt)));
}
