import { and, asc, eq } from 'drizzle-orm';
import type { Chapter } from '@sea/contract/chapters';
import { pageChapters } from '../board/session-board.ts';
import type { Executor } from '../db/database.ts';
import { chapterMarks } from '../db/schema.ts';
import type { ReplayClock } from '../replays/replay-clock.ts';

/** Most marks one session keeps (one a minute for a long day). */
export const MAX_CHAPTER_MARKS = 500;

type ListedSession = { id: number; endedAt: Date | null };

/**
 * The chapters of a session in time order: the board's page chapters and the teacher's marks in one list.
 * Each lasts until the next one; the last, a page's stay or (a mark) the session's end.
 */
export async function chapterList(
  db: Executor,
  session: ListedSession,
  clock: ReplayClock,
  now = new Date(),
): Promise<Chapter[]> {
  const [pages, marks] = await Promise.all([
    pageChapters(db, session, clock.toOffset, now),
    db
      .select()
      .from(chapterMarks)
      .where(eq(chapterMarks.sessionId, session.id))
      .orderBy(asc(chapterMarks.at), asc(chapterMarks.id))
      .limit(MAX_CHAPTER_MARKS),
  ]);
  const all: Chapter[] = [
    ...pages,
    ...marks.map((mark) => ({
      id: `mark-${mark.id}`,
      kind: 'mark' as const,
      offset_ms: clock.toOffset(mark.at),
      duration_ms: 0,
      material_id: null,
      page: null,
      title: mark.title,
      renamed: true,
    })),
  ].sort((a, b) => a.offset_ms - b.offset_ms || a.id.localeCompare(b.id));
  return all.map((chapter, index) => {
    const next = all[index + 1];
    const ownEnd = chapter.kind === 'page' ? chapter.offset_ms + chapter.duration_ms : clock.endMs;
    const end = next === undefined ? ownEnd : Math.min(next.offset_ms, Math.max(ownEnd, next.offset_ms));
    return { ...chapter, duration_ms: Math.max(0, end - chapter.offset_ms) };
  });
}

/** Adds a mark; answers its chapter id. */
export async function addMark(db: Executor, sessionId: number, at: Date, title: string): Promise<string> {
  const [row] = await db
    .insert(chapterMarks)
    .values({ sessionId, at, title })
    .returning({ id: chapterMarks.id });
  return `mark-${row?.id ?? 0}`;
}

/** How many marks a session has. */
export async function markCount(db: Executor, sessionId: number): Promise<number> {
  const rows = await db
    .select({ id: chapterMarks.id })
    .from(chapterMarks)
    .where(eq(chapterMarks.sessionId, sessionId));
  return rows.length;
}

/** Moves and/or renames a mark of the session; false when it is not one of the session's. */
export async function updateMark(
  db: Executor,
  sessionId: number,
  id: number,
  patch: { at?: Date; title?: string },
): Promise<boolean> {
  const where = and(eq(chapterMarks.id, id), eq(chapterMarks.sessionId, sessionId));
  const rows =
    patch.at === undefined && patch.title === undefined
      ? await db.select({ id: chapterMarks.id }).from(chapterMarks).where(where)
      : await db.update(chapterMarks).set(patch).where(where).returning({ id: chapterMarks.id });
  return rows.length > 0;
}

/** Removes a mark of the session; false when it is not one of the session's. */
export async function removeMark(db: Executor, sessionId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(chapterMarks)
    .where(and(eq(chapterMarks.id, id), eq(chapterMarks.sessionId, sessionId)))
    .returning({ id: chapterMarks.id });
  return rows.length > 0;
}
