import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type BoardLayout, BoardLayoutSchema, type InkPoint, type InkTool } from '@sea/contract/board';
import type { Executor } from '../db/database.ts';
import { boardStages, boardStates, boardStrokes, users } from '../db/schema.ts';

export type BoardStateRow = typeof boardStates.$inferSelect;
export type StrokeRow = typeof boardStrokes.$inferSelect;
export type StageRow = typeof boardStages.$inferSelect;

/** A page of a session's board. */
export type PageRef = { sessionId: number; materialId: number; page: number };

/** Most strokes a board answer holds (a session's pages together). */
export const MAX_STROKES_READ = 50_000;

/** A stored layout (a column of text), read leniently: a page change stored before layouts were kept is `board`. */
export function stageLayout(stored: string | null): BoardLayout {
  return BoardLayoutSchema.catch('board').parse(stored);
}

/** The session's board state; the empty stage when nothing was shown yet. */
export async function boardState(db: Executor, sessionId: number): Promise<BoardStateRow> {
  const [row] = await db.select().from(boardStates).where(eq(boardStates.sessionId, sessionId));
  return row ?? { sessionId, materialId: null, page: null, blankPages: 0, layout: 'board', writerId: null };
}

/**
 * Puts a page on stage (or none) in its layout, counting the whiteboard pages, and records the change with its
 * time.
 */
export async function saveStage(
  db: Executor,
  stage: {
    sessionId: number;
    materialId: number | null;
    page: number | null;
    blankPages: number;
    layout: BoardLayout;
    at: Date;
  },
): Promise<void> {
  const { sessionId, materialId, page, blankPages, layout, at } = stage;
  await db
    .insert(boardStates)
    .values({ sessionId, materialId, page, blankPages, layout })
    .onConflictDoUpdate({ target: boardStates.sessionId, set: { materialId, page, blankPages, layout } });
  await db.insert(boardStages).values({ sessionId, materialId, page, layout, at });
}

/** Names the student who may write on the session's board besides the teacher (null: none). */
export async function saveWriter(db: Executor, sessionId: number, writerId: string | null): Promise<void> {
  await db
    .insert(boardStates)
    .values({ sessionId, writerId })
    .onConflictDoUpdate({ target: boardStates.sessionId, set: { writerId } });
}

/** The nickname of a user (the invited writer), or null. */
export async function nicknameOf(db: Executor, userId: string): Promise<string | null> {
  const [row] = await db.select({ nickname: users.nickname }).from(users).where(eq(users.id, userId));
  return row?.nickname ?? null;
}

/** A piece (or several pieces together) of one stroke, as the writes append it. */
export type InkAppend = PageRef & {
  strokeId: string;
  userId: string;
  tool: InkTool;
  color: string;
  width: number;
  text: string | null;
  points: InkPoint[];
  done: boolean;
  startedAt: Date;
  endedAt: Date;
};

/** Appends pieces to their strokes (a stroke's first piece creates it), one statement per stroke. */
export async function appendInk(db: Executor, appends: readonly InkAppend[]): Promise<void> {
  for (const ink of appends) {
    await db
      .insert(boardStrokes)
      .values({ ...ink })
      .onConflictDoUpdate({
        target: [boardStrokes.sessionId, boardStrokes.materialId, boardStrokes.page, boardStrokes.strokeId],
        set: {
          points: sql`${boardStrokes.points} || excluded.points`,
          done: sql`${boardStrokes.done} or excluded.done`,
          endedAt: sql`excluded.ended_at`,
        },
      });
  }
}

/** What is stored of a stroke: its points so far and whether it is done (null: none of that id). */
export async function strokeProgress(
  db: Executor,
  page: PageRef,
  strokeId: string,
): Promise<{ count: number; done: boolean } | null> {
  const [row] = await db
    .select({ count: sql<number>`jsonb_array_length(${boardStrokes.points})`, done: boardStrokes.done })
    .from(boardStrokes)
    .where(and(onPage(page), eq(boardStrokes.strokeId, strokeId)));
  return row ? { count: Number(row.count), done: row.done } : null;
}

/** How many strokes are on a page now (not erased). */
export async function strokesOnPage(db: Executor, page: PageRef): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)` })
    .from(boardStrokes)
    .where(and(onPage(page), isNull(boardStrokes.erasedAt)));
  return Number(row?.count ?? 0);
}

/** Marks strokes of a page erased (all of them without `strokeIds`: the page is cleared). */
export async function eraseInk(
  db: Executor,
  page: PageRef,
  at: Date,
  strokeIds?: readonly string[],
): Promise<void> {
  const which = strokeIds === undefined ? undefined : inArray(boardStrokes.strokeId, [...strokeIds]);
  await db
    .update(boardStrokes)
    .set({ erasedAt: at })
    .where(and(onPage(page), isNull(boardStrokes.erasedAt), which));
}

/** The session's strokes in the order they were begun; with `visible`, only those not erased. */
export async function sessionStrokes(
  db: Executor,
  sessionId: number,
  options: { visible: boolean },
): Promise<StrokeRow[]> {
  return db
    .select()
    .from(boardStrokes)
    .where(
      and(eq(boardStrokes.sessionId, sessionId), options.visible ? isNull(boardStrokes.erasedAt) : undefined),
    )
    .orderBy(asc(boardStrokes.id))
    .limit(MAX_STROKES_READ);
}

/** The session's page changes, in order. */
export async function sessionStages(db: Executor, sessionId: number): Promise<StageRow[]> {
  return db
    .select()
    .from(boardStages)
    .where(eq(boardStages.sessionId, sessionId))
    .orderBy(asc(boardStages.id));
}

/** Sets the teacher's chapter titles (null: back to the page's own) of a session's page changes. */
export async function renameStages(
  db: Executor,
  sessionId: number,
  titles: readonly { id: number; title: string | null }[],
): Promise<number> {
  let renamed = 0;
  for (const { id, title } of titles) {
    const rows = await db
      .update(boardStages)
      .set({ title })
      .where(and(eq(boardStages.id, id), eq(boardStages.sessionId, sessionId)))
      .returning({ id: boardStages.id });
    renamed += rows.length;
  }
  return renamed;
}

/** Removes a page change's chapter from the replay's list (or brings it back); false when not of the session. */
export async function removeStageChapter(
  db: Executor,
  sessionId: number,
  id: number,
  removed = true,
): Promise<boolean> {
  const rows = await db
    .update(boardStages)
    .set({ chapterRemoved: removed })
    .where(and(eq(boardStages.id, id), eq(boardStages.sessionId, sessionId)))
    .returning({ id: boardStages.id });
  return rows.length > 0;
}

function onPage(page: PageRef) {
  return and(
    eq(boardStrokes.sessionId, page.sessionId),
    eq(boardStrokes.materialId, page.materialId),
    eq(boardStrokes.page, page.page),
  );
}
