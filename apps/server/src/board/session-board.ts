import { inArray } from 'drizzle-orm';
import {
  CHAPTER_MIN_MS,
  type InkTool,
  type SessionBoard,
  type Stroke,
  WHITEBOARD_ID,
} from '@sea/contract/board';
import type { Chapter } from '@sea/contract/chapters';
import type { Executor } from '../db/database.ts';
import { materialPages } from '../db/schema.ts';
import type { ToOffset } from '../replays/replay-clock.ts';
import { sessionStages, sessionStrokes, type StageRow, stageLayout, type StrokeRow } from './board-store.ts';

/** A stored stroke as the board routes answer it. */
export function strokeView(row: StrokeRow): Stroke {
  return {
    material_id: row.materialId,
    page: row.page,
    stroke_id: row.strokeId,
    tool: row.tool as InkTool,
    color: row.color,
    width: row.width,
    text: row.text,
    points: row.points,
    done: row.done,
    by: row.userId,
  };
}

/** A session's board for its replay: every page change and every stroke (erased ones too) with offsets. */
export async function sessionBoard(
  db: Executor,
  sessionId: number,
  toOffset: ToOffset,
): Promise<SessionBoard> {
  const [stages, strokes] = await Promise.all([
    sessionStages(db, sessionId),
    sessionStrokes(db, sessionId, { visible: false }),
  ]);
  return {
    session_id: sessionId,
    stages: stages.map((stage) => ({
      offset_ms: toOffset(stage.at),
      material_id: stage.materialId,
      page: stage.page,
      layout: stageLayout(stage.layout),
    })),
    strokes: strokes.map((row) => ({
      ...strokeView(row),
      offset_ms: toOffset(row.startedAt),
      end_offset_ms: toOffset(row.endedAt),
      erased_offset_ms: row.erasedAt === null ? null : toOffset(row.erasedAt),
    })),
  };
}

/**
 * The page chapters of a session: each stay of at least {@link CHAPTER_MIN_MS} on one page (until the next page
 * change, or the session's end) that the teacher did not remove, titled by the teacher, else by the page's
 * first line, else '빈 페이지 N'.
 */
export async function pageChapters(
  db: Executor,
  session: { id: number; endedAt: Date | null },
  toOffset: ToOffset,
  now = new Date(),
): Promise<Chapter[]> {
  const stages = await sessionStages(db, session.id);
  const titles = await pageTitles(db, stages);
  const chapters: Chapter[] = [];
  stages.forEach((stage, index) => {
    if (stage.materialId === null || stage.page === null) return;
    const until = stages[index + 1]?.at ?? session.endedAt ?? now;
    if (until.getTime() - stage.at.getTime() < CHAPTER_MIN_MS || stage.chapterRemoved) return;
    const own = titles.get(`${stage.materialId}:${stage.page}`) ?? null;
    chapters.push({
      id: `page-${stage.id}`,
      kind: 'page',
      offset_ms: toOffset(stage.at),
      duration_ms: Math.max(0, toOffset(until) - toOffset(stage.at)),
      material_id: stage.materialId,
      page: stage.page,
      title: stage.title ?? own ?? `빈 페이지 ${stage.page}`,
      renamed: stage.title !== null,
    });
  });
  return chapters;
}

/** The first lines of the material pages shown (the whiteboard's pages have none). */
async function pageTitles(db: Executor, stages: StageRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(stages.flatMap((stage) => (stage.materialId ? [stage.materialId] : [])))].filter(
    (id) => id !== WHITEBOARD_ID,
  );
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      materialId: materialPages.materialId,
      number: materialPages.number,
      title: materialPages.title,
    })
    .from(materialPages)
    .where(inArray(materialPages.materialId, ids));
  return new Map(
    rows.flatMap((row) =>
      row.title === null ? [] : [[`${row.materialId}:${row.number}`, row.title] as const],
    ),
  );
}
