import type { Stroke } from './ink-types.ts';

/** What undo or redo asks the board to do: put strokes on the page, or take them off. */
export type InkOperation = { kind: 'add'; strokes: Stroke[] } | { kind: 'remove'; ids: string[] };

type Entry = { kind: 'added' | 'removed'; strokes: Stroke[] };

const MAX_ENTRIES = 200;

/**
 * One writer's undo and redo on one page. It only remembers what this writer did (drew, erased, cleared) and
 * answers the operations that undo or redo it; the board applies and sends them. Strokes put back get new ids
 * (`newId`), because the ones they had were erased for everyone.
 */
export class InkHistory {
  readonly #undo: Entry[] = [];
  readonly #redo: Entry[] = [];
  readonly #newId: () => string;

  constructor(newId: () => string) {
    this.#newId = newId;
  }

  get canUndo(): boolean {
    return this.#undo.length > 0;
  }

  get canRedo(): boolean {
    return this.#redo.length > 0;
  }

  /** This writer finished a stroke. */
  drew(stroke: Stroke): void {
    this.#push({ kind: 'added', strokes: [stroke] });
  }

  /** This writer erased strokes, or cleared the page. */
  removed(strokes: Stroke[]): void {
    if (strokes.length > 0) this.#push({ kind: 'removed', strokes });
  }

  /** Strokes erased by someone else are no longer this writer's to bring back or take away. */
  forget(ids: ReadonlySet<string>): void {
    for (const list of [this.#undo, this.#redo]) {
      for (const entry of list) {
        if (entry.kind === 'added') entry.strokes = entry.strokes.filter((stroke) => !ids.has(stroke.id));
      }
    }
  }

  undo(): InkOperation | null {
    const entry = this.#undo.pop();
    if (!entry) return null;
    const operation = this.#invert(entry);
    this.#redo.push(entry);
    return operation;
  }

  redo(): InkOperation | null {
    const entry = this.#redo.pop();
    if (!entry) return null;
    const operation = this.#invert({
      kind: entry.kind === 'added' ? 'removed' : 'added',
      strokes: entry.strokes,
    });
    if (operation.kind === 'add') entry.strokes = operation.strokes;
    this.#undo.push(entry);
    return operation;
  }

  /** The operation that takes an entry back; strokes brought back get new ids, kept in the entry. */
  #invert(entry: Entry): InkOperation {
    if (entry.kind === 'added') return { kind: 'remove', ids: entry.strokes.map((stroke) => stroke.id) };
    const strokes = entry.strokes.map((stroke) => ({ ...stroke, id: this.#newId(), done: true }));
    entry.strokes = strokes;
    return { kind: 'add', strokes };
  }

  #push(entry: Entry): void {
    this.#undo.push(entry);
    if (this.#undo.length > MAX_ENTRIES) this.#undo.shift();
    this.#redo.length = 0;
  }
}
