import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { sessionNotes } from '../db/schema.ts';

export type NoteRow = typeof sessionNotes.$inferSelect;

/** Most notes one member keeps on one session. */
export const MAX_NOTES_PER_SESSION = 1_000;

/** The user's own notes on a session, in time order. */
export async function ownNotes(db: Executor, userId: string, sessionId: number): Promise<NoteRow[]> {
  return db
    .select()
    .from(sessionNotes)
    .where(and(eq(sessionNotes.userId, userId), eq(sessionNotes.sessionId, sessionId)))
    .orderBy(asc(sessionNotes.at), asc(sessionNotes.id))
    .limit(MAX_NOTES_PER_SESSION);
}

/** The user's own notes on these sessions, in time order. */
export async function ownNotesOf(db: Executor, userId: string, sessionIds: number[]): Promise<NoteRow[]> {
  if (sessionIds.length === 0) return [];
  return db
    .select()
    .from(sessionNotes)
    .where(and(eq(sessionNotes.userId, userId), inArray(sessionNotes.sessionId, sessionIds)))
    .orderBy(asc(sessionNotes.at), asc(sessionNotes.id));
}

export async function addNote(
  db: Executor,
  note: { userId: string; sessionId: number; at: Date; content: string },
): Promise<NoteRow> {
  const [row] = await db.insert(sessionNotes).values(note).returning();
  if (row === undefined) throw new Error('note not stored');
  return row;
}

/** Changes one of the user's own notes of the session; undefined when it is not theirs (or not there). */
export async function updateNote(
  db: Executor,
  owner: { userId: string; sessionId: number; id: number },
  patch: { at?: Date; content?: string },
): Promise<NoteRow | undefined> {
  const [row] = await db
    .update(sessionNotes)
    .set({ ...patch, updatedAt: new Date() })
    .where(ownNote(owner))
    .returning();
  return row;
}

/** Removes one of the user's own notes of the session; false when it is not theirs (or not there). */
export async function removeNote(
  db: Executor,
  owner: { userId: string; sessionId: number; id: number },
): Promise<boolean> {
  const rows = await db.delete(sessionNotes).where(ownNote(owner)).returning({ id: sessionNotes.id });
  return rows.length > 0;
}

function ownNote(owner: { userId: string; sessionId: number; id: number }) {
  return and(
    eq(sessionNotes.id, owner.id),
    eq(sessionNotes.userId, owner.userId),
    eq(sessionNotes.sessionId, owner.sessionId),
  );
}
