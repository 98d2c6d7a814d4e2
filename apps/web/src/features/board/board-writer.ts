import {
  BOARD_CLEAR_DESTINATION,
  BOARD_ERASE_DESTINATION,
  BOARD_INK_DESTINATION,
  BOARD_POINTER_DESTINATION,
  INK_DECIMALS,
  MAX_ERASE_STROKES,
} from '@sea/contract/board';
import type { BoardPageRef, BoardState } from './board-state.ts';
import { pageKey } from './board-state.ts';
import { strokesTouched } from './ink/hit-test.ts';
import { InkHistory, type InkOperation } from './ink/ink-history.ts';
import { SHAPE_TOOLS, type InkPoint, type InkTool, type PageSize, type Stroke } from './ink/ink-types.ts';
import type { StrokePiece } from './ink/page-ink.ts';
import { StrokeStreamer, type StreamerTimers } from './ink/stroke-streamer.ts';

/** Sends a board action (`/app/board/...`) with the room's id; false when not connected. */
export type BoardSend = (destination: string, body: object) => boolean;

/** The look of the next stroke. */
export type InkStyle = { tool: InkTool; color: string; width: number };

/** The laser goes out at most this often (the server's budget: board.ts). */
export const POINTER_INTERVAL_MS = 50;

const SCALE = 10 ** INK_DECIMALS;
const round = (value: number): number => Math.round(Math.min(1, Math.max(0, value)) * SCALE) / SCALE;

/** A point rounded as the server keeps it, so the writer's own copy is the one everybody gets. */
export function inkPoint(x: number, y: number, pressure: number): InkPoint {
  return [round(x), round(y), round(pressure)];
}

/** A short random stroke id (board.ts: `[A-Za-z0-9_-]{1,40}`). */
export function newStrokeId(): string {
  return `s${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;
}

/**
 * What the teacher (or the invited student) does on the board: strokes drawn here go on the page at once and
 * out in pieces while they are drawn; the eraser, clearing, undo and redo change the page here and send the
 * change; the laser goes out at most every {@link POINTER_INTERVAL_MS}. Undo and redo are this writer's own, per
 * page.
 */
export class BoardWriter {
  readonly #state: BoardState;
  readonly #send: BoardSend;
  readonly #newId: () => string;
  readonly #histories = new Map<string, InkHistory>();
  readonly #streamer: StrokeStreamer;
  #drawing: { ref: BoardPageRef; stroke: Stroke } | null = null;
  /** The page of the stroke the streamer sends (kept past `end()`, whose last piece goes out after it). */
  #drawingRef: BoardPageRef | null = null;
  #lastPointer = -Infinity;
  readonly #now: () => number;

  constructor(
    state: BoardState,
    send: BoardSend,
    options: { newId?: () => string; timers?: StreamerTimers; now?: () => number } = {},
  ) {
    this.#state = state;
    this.#send = send;
    this.#newId = options.newId ?? newStrokeId;
    this.#now = options.now ?? (() => performance.now());
    this.#streamer = new StrokeStreamer((piece) => this.#sendPiece(piece), options.timers);
  }

  history(ref: BoardPageRef): InkHistory {
    const key = pageKey(ref);
    let history = this.#histories.get(key);
    if (!history) {
      history = new InkHistory(this.#newId);
      this.#histories.set(key, history);
    }
    return history;
  }

  /** The pen touches the page: a stroke starts (a text stroke is whole at once). */
  begin(ref: BoardPageRef, style: InkStyle, point: InkPoint, text?: string): void {
    this.end();
    const stroke: Stroke = {
      id: this.#newId(),
      ...style,
      points: [point],
      done: false,
      ...(text === undefined ? {} : { text }),
    };
    this.#drawing = { ref, stroke };
    this.#drawingRef = ref;
    this.#state.ink(ref).apply(stroke);
    this.#streamer.start(stroke, SHAPE_TOOLS.has(style.tool));
    this.#changed(ref);
  }

  /** The pen moved: more points (a shape: its new end). */
  extend(points: readonly InkPoint[]): void {
    const drawing = this.#drawing;
    const last = points[points.length - 1];
    if (!drawing || !last) return;
    const ink = this.#state.ink(drawing.ref);
    const first = drawing.stroke.points[0] ?? last;
    if (SHAPE_TOOLS.has(drawing.stroke.tool)) ink.reshape(drawing.stroke.id, [first, last]);
    else ink.apply({ ...drawing.stroke, points, done: false });
    this.#streamer.add(points);
    this.#changed(drawing.ref);
  }

  /** The pen lifted: the stroke is finished here and its last piece goes out. */
  end(): void {
    const drawing = this.#drawing;
    if (!drawing) return;
    this.#drawing = null;
    const ink = this.#state.ink(drawing.ref);
    ink.apply({ ...drawing.stroke, points: [], done: true });
    this.#streamer.end();
    const finished = ink.get(drawing.stroke.id);
    if (finished) this.history(drawing.ref).drew(finished);
    this.#changed(drawing.ref);
  }

  /** The eraser at a point: every stroke it touches goes, for everyone. */
  eraseAt(ref: BoardPageRef, at: readonly [number, number], radius: number, size: PageSize): void {
    const ids = strokesTouched(this.#state.ink(ref).finished(), at, radius, size);
    if (ids.length > 0) this.#remove(ref, ids, true);
  }

  clear(ref: BoardPageRef): void {
    const removed = this.#state.ink(ref).clear();
    if (removed.length === 0) return;
    this.history(ref).removed(removed);
    this.#send(BOARD_CLEAR_DESTINATION, { ...ref });
    this.#changed(ref);
  }

  undo(ref: BoardPageRef): void {
    this.#run(ref, this.history(ref).undo());
  }

  redo(ref: BoardPageRef): void {
    this.#run(ref, this.history(ref).redo());
  }

  /** The laser pointer on the page on stage (null: hidden). */
  pointer(x: number | null, y: number | null): void {
    const now = this.#now();
    if (x !== null && now - this.#lastPointer < POINTER_INTERVAL_MS) return;
    this.#lastPointer = now;
    if (x !== null && y !== null) this.#state.laser.add(x, y, now);
    this.#send(BOARD_POINTER_DESTINATION, {
      x: x === null ? null : round(x),
      y: y === null ? null : round(y),
    });
  }

  #run(ref: BoardPageRef, operation: InkOperation | null): void {
    if (!operation) return;
    if (operation.kind === 'remove') {
      this.#remove(ref, operation.ids, false);
      return;
    }
    const ink = this.#state.ink(ref);
    ink.load(operation.strokes);
    for (const stroke of operation.strokes) this.#sendWhole(ref, stroke);
    this.#changed(ref);
  }

  #remove(ref: BoardPageRef, ids: string[], remember: boolean): void {
    const removed = this.#state.ink(ref).erase(ids);
    if (removed.length === 0) return;
    if (remember) this.history(ref).removed(removed);
    for (let start = 0; start < removed.length; start += MAX_ERASE_STROKES) {
      const strokeIds = removed.slice(start, start + MAX_ERASE_STROKES).map((stroke) => stroke.id);
      this.#send(BOARD_ERASE_DESTINATION, { ...ref, strokeIds });
    }
    this.#changed(ref);
  }

  /** A stroke brought back by undo or redo goes out whole, in pieces the server accepts. */
  #sendWhole(ref: BoardPageRef, stroke: Stroke): void {
    const streamer = new StrokeStreamer((piece) => this.#sendPieceOf(ref, piece), {
      setTimeout: () => null,
      clearTimeout: () => undefined,
    });
    streamer.start({ ...stroke, points: [] });
    streamer.add(stroke.points);
    streamer.end();
  }

  #sendPiece(piece: StrokePiece): void {
    const ref = this.#drawingRef;
    if (ref) this.#sendPieceOf(ref, piece);
  }

  #sendPieceOf(ref: BoardPageRef, piece: StrokePiece): void {
    const { id, from: _from, text, ...rest } = piece;
    this.#send(BOARD_INK_DESTINATION, {
      ...ref,
      strokeId: id,
      ...rest,
      ...(text === undefined ? {} : { text }),
    });
  }

  #changed(ref: BoardPageRef): void {
    this.#state.touch(ref);
  }
}
