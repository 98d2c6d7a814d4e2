import type { InkPoint, Stroke } from './ink-types.ts';

/**
 * A piece of a stroke as it travels: the points since the last piece, `done` on the last one. `from` (when
 * known) counts the stroke's points before this piece, so a piece already held is not added twice.
 */
export type StrokePiece = Omit<Stroke, 'points'> & { points: readonly InkPoint[]; from?: number };

/**
 * The ink of one page: strokes in the order they were started, built from pieces as they arrive. `version`
 * counts changes of the finished strokes (the renderer redraws its cache only when it moves); `liveVersion`
 * counts every change, the stroke in progress included.
 */
export class PageInk {
  readonly #strokes = new Map<string, Stroke>();
  #version = 0;
  #liveVersion = 0;

  /** Strokes in drawing order, finished or not. */
  get strokes(): readonly Stroke[] {
    return [...this.#strokes.values()];
  }

  /** Finished strokes, in drawing order. */
  finished(): Stroke[] {
    return [...this.#strokes.values()].filter((stroke) => stroke.done);
  }

  /** Strokes still being drawn. */
  inProgress(): Stroke[] {
    return [...this.#strokes.values()].filter((stroke) => !stroke.done);
  }

  get version(): number {
    return this.#version;
  }

  get liveVersion(): number {
    return this.#liveVersion;
  }

  get pointCount(): number {
    let count = 0;
    for (const stroke of this.#strokes.values()) count += stroke.points.length;
    return count;
  }

  has(id: string): boolean {
    return this.#strokes.has(id);
  }

  get(id: string): Stroke | undefined {
    return this.#strokes.get(id);
  }

  /**
   * Adds a piece: a new stroke, or more points of one in progress. A piece of a stroke already finished is
   * ignored (a repeat after a reconnect), so pieces may arrive twice.
   */
  apply({ from, ...piece }: StrokePiece): void {
    const held = this.#strokes.get(piece.id);
    if (held?.done) return;
    if (held) {
      // Points the stroke already holds (the snapshot had them) are skipped.
      const overlap = from === undefined ? 0 : Math.max(0, held.points.length - from);
      held.points.push(...piece.points.slice(overlap));
      if (piece.text !== undefined) held.text = piece.text;
      held.done = piece.done;
    } else {
      this.#strokes.set(piece.id, { ...piece, points: [...piece.points] });
    }
    if (piece.done) this.#version += 1;
    this.#liveVersion += 1;
  }

  /** Replaces a shape's points (a line or a rectangle follows the pen: only its ends count). */
  reshape(id: string, points: readonly InkPoint[]): void {
    const held = this.#strokes.get(id);
    if (!held || held.done) return;
    held.points = [...points];
    this.#liveVersion += 1;
  }

  /** Removes strokes; returns those that were there. */
  erase(ids: Iterable<string>): Stroke[] {
    const removed: Stroke[] = [];
    for (const id of ids) {
      const stroke = this.#strokes.get(id);
      if (!stroke) continue;
      this.#strokes.delete(id);
      removed.push(stroke);
    }
    if (removed.length > 0) this.#changed();
    return removed;
  }

  /** Removes every stroke; returns them. */
  clear(): Stroke[] {
    const removed = [...this.#strokes.values()];
    this.#strokes.clear();
    if (removed.length > 0) this.#changed();
    return removed;
  }

  /** Puts whole strokes back (a page loaded at once, or an undone erase). */
  load(strokes: readonly Stroke[]): void {
    for (const stroke of strokes) this.#strokes.set(stroke.id, { ...stroke, points: [...stroke.points] });
    this.#changed();
  }

  #changed(): void {
    this.#version += 1;
    this.#liveVersion += 1;
  }
}
