import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { liveSessions } from '../db/schema.ts';
import { HttpError } from '../errors.ts';
import type { Relation } from '../classes/class-role.ts';

export type SessionRow = typeof liveSessions.$inferSelect;

/** Most sessions one list answers (a class with a lecture a day for years stays under it). */
export const MAX_SESSIONS_LISTED = 2_000;

/** Hidden sessions are only the teacher's to see. */
function visibleTo(relation: Relation): SQL | undefined {
  return relation === 'teacher' ? undefined : eq(liveSessions.hidden, false);
}

/** A class's sessions the caller may see, newest first. */
export async function listSessions(db: Executor, classId: number, relation: Relation): Promise<SessionRow[]> {
  return db
    .select()
    .from(liveSessions)
    .where(and(eq(liveSessions.classId, classId), visibleTo(relation)))
    .orderBy(desc(liveSessions.startedAt), desc(liveSessions.id))
    .limit(MAX_SESSIONS_LISTED);
}

/** One session of this class the caller may see; 404 otherwise (another class's, or hidden from students). */
export async function findSession(
  db: Executor,
  classId: number,
  sessionId: number,
  relation: Relation,
): Promise<SessionRow> {
  const [row] = await db
    .select()
    .from(liveSessions)
    .where(and(eq(liveSessions.id, sessionId), eq(liveSessions.classId, classId), visibleTo(relation)));
  if (row === undefined) throw sessionNotFound();
  return row;
}

export function sessionNotFound(): HttpError {
  return new HttpError(404, '강의 세션을 찾을 수 없어요.', 'Session not found.');
}

/** Sets the title and/or the hidden flag; answers the updated row. */
export async function updateSession(
  db: Executor,
  sessionId: number,
  patch: { title?: string | null | undefined; hidden?: boolean | undefined },
): Promise<SessionRow> {
  const set: Partial<typeof liveSessions.$inferInsert> = {};
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.hidden !== undefined) set.hidden = patch.hidden;
  const [row] =
    Object.keys(set).length === 0
      ? await db.select().from(liveSessions).where(eq(liveSessions.id, sessionId))
      : await db.update(liveSessions).set(set).where(eq(liveSessions.id, sessionId)).returning();
  if (row === undefined) throw sessionNotFound();
  return row;
}

/**
 * Forgets a session's recording (its files are removed by the caller): the session stays, with state `none`.
 * A replay job still running for it sees the change and removes what it made. Answers the row as it was.
 */
export async function dropRecording(db: Executor, sessionIds: number[]): Promise<SessionRow[]> {
  if (sessionIds.length === 0) return [];
  const before = await db.select().from(liveSessions).where(inArray(liveSessions.id, sessionIds));
  await db
    .update(liveSessions)
    .set({ recordingState: 'none', recordingProgress: 0, recordingError: null, replayDurationMs: null })
    .where(inArray(liveSessions.id, sessionIds));
  return before;
}
