import type { SessionBoard } from '@sea/contract/board';
import { fromStored, type BoardPageRef } from './board-state.ts';
import type { Stroke } from './ink/ink-types.ts';

/** The board at one moment of a replay: the page on stage (null: none) and its ink as it was then. */
export type ReplayFrame = {
  page: BoardPageRef | null;
  strokes: Stroke[];
  /** Changes exactly when what is drawn changes (the page, a stroke shown, erased or drawn further). */
  signature: string;
};

/**
 * The board at `timeMs` of the replay's clock: the last page change at or before it, and the strokes of that
 * page then on it: started, not yet erased, a stroke still being drawn cut to the share of its points drawn
 * by then (its pieces are spread evenly between its first and its last piece).
 */
export function replayFrame(board: SessionBoard, timeMs: number): ReplayFrame {
  let stage: SessionBoard['stages'][number] | undefined;
  for (const change of board.stages) {
    if (change.offset_ms > timeMs) break;
    stage = change;
  }
  if (!stage || stage.material_id === null || stage.page === null)
    return { page: null, strokes: [], signature: 'none' };
  const page = { materialId: stage.material_id, page: stage.page };
  const strokes: Stroke[] = [];
  const parts: string[] = [`${page.materialId}:${page.page}`];
  for (const stored of board.strokes) {
    if (stored.material_id !== page.materialId || stored.page !== page.page) continue;
    if (stored.offset_ms > timeMs) continue;
    if (stored.erased_offset_ms !== null && stored.erased_offset_ms <= timeMs) continue;
    const span = stored.end_offset_ms - stored.offset_ms;
    const drawing = timeMs < stored.end_offset_ms && span > 0;
    const count = drawing
      ? Math.max(1, Math.ceil((stored.points.length * (timeMs - stored.offset_ms)) / span))
      : stored.points.length;
    strokes.push({ ...fromStored(stored), points: stored.points.slice(0, count), done: true });
    parts.push(`${stored.stroke_id}/${count}`);
  }
  return { page, strokes, signature: parts.join(',') };
}
