import { MAX_POINTS_PER_PIECE } from '@sea/contract/board';
import type { InkPoint, Stroke } from './ink-types.ts';
import type { StrokePiece } from './page-ink.ts';

/** How often a stroke in progress goes out: often enough to look live, rarely enough to stay cheap. */
export const PIECE_INTERVAL_MS = 50;
/** At most this many points in one piece (the server refuses bigger ones): a longer wait sends several. */
export const MAX_PIECE_POINTS = MAX_POINTS_PER_PIECE;

export type StreamerTimers = {
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

const realTimers: StreamerTimers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Sends the stroke being drawn in pieces: the points gathered since the last piece, at most every
 * {@link PIECE_INTERVAL_MS}, and the rest with `done: true` when the pen lifts. A shape (line, rectangle...)
 * is drawn between its first and its last point, so after its start only its latest end goes out.
 */
export class StrokeStreamer {
  readonly #send: (piece: StrokePiece) => void;
  readonly #timers: StreamerTimers;
  #stroke: Stroke | null = null;
  #pending: InkPoint[] = [];
  #timer: unknown = null;
  #shape = false;

  constructor(send: (piece: StrokePiece) => void, timers: StreamerTimers = realTimers) {
    this.#send = send;
    this.#timers = timers;
  }

  /** A stroke starts; its first points go out at once. */
  start(stroke: Stroke, shape = false): void {
    this.#stroke = stroke;
    this.#shape = shape;
    this.#pending = [...stroke.points];
    this.#flush();
  }

  /** Points were added to the stroke (or, for a shape, its ends moved). */
  add(points: readonly InkPoint[]): void {
    if (!this.#stroke) return;
    if (this.#shape) this.#pending = points.slice(-1);
    else this.#pending.push(...points);
    if (this.#timer === null) {
      this.#timer = this.#timers.setTimeout(() => {
        this.#timer = null;
        this.#flush();
      }, PIECE_INTERVAL_MS);
    }
  }

  /** The pen lifted: what is left goes out with `done: true`. */
  end(): void {
    if (!this.#stroke) return;
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.#flush(true);
    this.#stroke = null;
  }

  #flush(done = false): void {
    const stroke = this.#stroke;
    if (!stroke) return;
    const points = this.#pending;
    this.#pending = [];
    const chunks: InkPoint[][] = [];
    for (let index = 0; index < points.length; index += MAX_PIECE_POINTS) {
      chunks.push(points.slice(index, index + MAX_PIECE_POINTS));
    }
    if (chunks.length === 0) {
      if (!done) return;
      chunks.push([]);
    }
    const { points: _points, ...look } = stroke;
    chunks.forEach((chunk, index) => {
      this.#send({ ...look, points: chunk, done: done && index === chunks.length - 1 });
    });
  }
}
