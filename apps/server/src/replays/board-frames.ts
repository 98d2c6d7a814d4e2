import { createHash } from 'node:crypto';
import type { BoardLayout, SessionBoard, Stroke } from '@sea/contract/board';
import type { Stretch } from './composition-plan.ts';

/** A page of the board: a material's, or a whiteboard page (material 0). */
export type BoardPageRef = { materialId: number; page: number };

/**
 * What the board shows over one stretch of the replay (replay ms): a page with its ink as it was at `fromMs`
 * ({@link boardAt} gives the strokes when the picture is made; frames hold none, to stay small).
 */
export type BoardFrame = {
  fromMs: number;
  untilMs: number;
  page: BoardPageRef;
  /** `side`: the page beside the screen share (the teacher's layout, where a screen share shows); else `board`. */
  layout: BoardLayout;
  /** The same for two frames exactly when they look the same (one picture serves both): a hash. */
  signature: string;
};

type StoredStroke = SessionBoard['strokes'][number];
/** A session's board with its strokes grouped by page, looked up at many moments. */
export type IndexedBoard = { stages: SessionBoard['stages']; pages: Map<string, StoredStroke[]> };

const pageKey = (materialId: number, page: number) => `${materialId}:${page}`;

/** Groups a board's strokes by page, once. */
export function indexBoard(board: SessionBoard): IndexedBoard {
  const pages = new Map<string, StoredStroke[]>();
  for (const stroke of board.strokes) {
    const key = pageKey(stroke.material_id, stroke.page);
    const list = pages.get(key);
    if (list) list.push(stroke);
    else pages.set(key, [stroke]);
  }
  return { stages: board.stages, pages };
}

/** While a stroke is drawn, its picture is renewed this often (at most: a long lecture renews less often). */
export const BOARD_STEP_MS = 500;
/**
 * Most frames of one replay: each may be a picture to render (about 40 ms of sharp each on one core), so a
 * lecture of hours drawn all along has its drawing renewed less often instead of taking unbounded time.
 */
export const MAX_BOARD_FRAMES = 1_500;

/**
 * The board at `timeMs` of the replay: the last page change at or before it, and that page's strokes then on
 * it, a stroke still being drawn cut to the share of its points drawn by then, as the replay page draws it
 * (apps/web's replay-frame.ts).
 */
export function boardAt(
  board: IndexedBoard,
  timeMs: number,
): { page: BoardPageRef | null; layout: BoardLayout; strokes: Stroke[]; signature: string } {
  let stage: SessionBoard['stages'][number] | undefined;
  for (const change of board.stages) {
    if (change.offset_ms > timeMs) break;
    stage = change;
  }
  if (!stage || stage.material_id === null || stage.page === null)
    return { page: null, layout: 'board', strokes: [], signature: 'none' };
  const page = { materialId: stage.material_id, page: stage.page };
  const strokes: Stroke[] = [];
  const signature = createHash('sha1').update(pageKey(page.materialId, page.page));
  for (const stored of board.pages.get(pageKey(page.materialId, page.page)) ?? []) {
    if (stored.offset_ms > timeMs) continue;
    if (stored.erased_offset_ms !== null && stored.erased_offset_ms <= timeMs) continue;
    const span = stored.end_offset_ms - stored.offset_ms;
    const drawing = timeMs < stored.end_offset_ms && span > 0;
    const count = drawing
      ? Math.max(1, Math.ceil((stored.points.length * (timeMs - stored.offset_ms)) / span))
      : stored.points.length;
    strokes.push({
      material_id: stored.material_id,
      page: stored.page,
      stroke_id: stored.stroke_id,
      tool: stored.tool,
      color: stored.color,
      width: stored.width,
      text: stored.text,
      points: stored.points.slice(0, count),
      done: true,
      by: stored.by,
    });
    signature.update(`,${stored.stroke_id}/${count}`);
  }
  return { page, layout: stage.layout, strokes, signature: signature.digest('base64url') };
}

/**
 * The frames of a replay's board: a new one at each page change and, for the ink, at the next step after a
 * stroke begins, grows, ends or goes; stretches with nothing on stage have none. A page change shows at its
 * own time; ink at most a step late. When that would make more than {@link MAX_BOARD_FRAMES} frames, the step
 * doubles (and page changes keep to the step too once they alone would be too many). A page in the `side`
 * layout is beside the screen share only where one shows (`screens`, replay ms); elsewhere it takes the
 * picture alone, so a frame also begins where a screen share starts or stops under it.
 */
export function boardFrames(
  board: IndexedBoard,
  durationMs: number,
  screens: readonly Stretch[] = [],
): BoardFrame[] {
  if (board.stages.length === 0 || durationMs <= 0) return [];
  const sided = board.stages.some((stage) => stage.layout === 'side') ? screens : [];
  for (let stepMs = BOARD_STEP_MS; ; stepMs *= 2) {
    const times = changeTimes(board, sided, durationMs, stepMs);
    if (times.length <= MAX_BOARD_FRAMES || stepMs >= durationMs) {
      return framesAt(board, sided, times, durationMs);
    }
  }
}

/** The moments (replay ms, sorted, from 0) where the board's picture may change, at this step. */
function changeTimes(
  board: IndexedBoard,
  screens: readonly Stretch[],
  durationMs: number,
  stepMs: number,
): number[] {
  const onStep = (ms: number) => Math.ceil(ms / stepMs) * stepMs;
  const stagesOnStep = board.stages.length + 2 * screens.length > MAX_BOARD_FRAMES / 2;
  const times = new Set<number>([0]);
  const exact = (ms: number) => times.add(stagesOnStep ? onStep(ms) : ms);
  for (const stage of board.stages) exact(stage.offset_ms);
  for (const screen of screens) {
    exact(screen.fromMs);
    exact(screen.untilMs);
  }
  for (const stroke of [...board.pages.values()].flat()) {
    times.add(onStep(stroke.offset_ms));
    for (let at = onStep(stroke.offset_ms) + stepMs; at < stroke.end_offset_ms; at += stepMs) times.add(at);
    times.add(onStep(stroke.end_offset_ms));
    if (stroke.erased_offset_ms !== null) times.add(onStep(stroke.erased_offset_ms));
  }
  return [...times].filter((ms) => ms < durationMs).sort((a, b) => a - b);
}

function framesAt(
  board: IndexedBoard,
  screens: readonly Stretch[],
  times: number[],
  durationMs: number,
): BoardFrame[] {
  const frames: BoardFrame[] = [];
  times.forEach((fromMs, index) => {
    const untilMs = times[index + 1] ?? durationMs;
    const at = boardAt(board, fromMs);
    const screenShows = screens.some((s) => s.fromMs <= fromMs && fromMs < s.untilMs);
    const layout = at.layout === 'side' && screenShows ? 'side' : 'board';
    // The same page and ink beside the screen share is another picture.
    const signature = layout === 'side' ? `${at.signature}:side` : at.signature;
    const last = frames.at(-1);
    if (last && last.untilMs === fromMs && last.signature === signature) last.untilMs = untilMs;
    else if (at.page !== null) frames.push({ fromMs, untilMs, page: at.page, layout, signature });
  });
  return frames;
}
