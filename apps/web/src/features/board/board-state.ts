import type {
  BoardEvent,
  BoardSnapshot,
  BoardStage,
  BoardWriterState,
  Stroke as StoredStroke,
} from '@sea/contract/board';
import { Emitter } from '../../lib/emitter.ts';
import type { Stroke } from './ink/ink-types.ts';
import { LaserTrail } from './ink/laser-trail.ts';
import { PageInk } from './ink/page-ink.ts';

/** A page of the board: a material's page, or a whiteboard page (`materialId` 0). */
export type BoardPageRef = { materialId: number; page: number };

export type BoardStateEvents = {
  /** The stage or the invited writer changed. */
  stageChanged: BoardStage;
  /** A page's ink changed (carries the page's key, {@link pageKey}). */
  inkChanged: string;
  /** The laser moved. */
  pointerMoved: undefined;
};

export const NO_STAGE: BoardStage = { materialId: null, page: null, blankPages: 0, layout: 'board' };

export function pageKey(ref: BoardPageRef): string {
  return `${ref.materialId}:${ref.page}`;
}

/** A stored stroke (snake_case, from the board routes) as the ink engine holds it. */
export function fromStored(stroke: StoredStroke): Stroke {
  return {
    id: stroke.stroke_id,
    tool: stroke.tool,
    color: stroke.color,
    width: stroke.width,
    points: stroke.points,
    done: stroke.done,
    ...(stroke.text === null ? {} : { text: stroke.text }),
  };
}

/**
 * The board of a live room as this reader knows it: the stage, the invited writer, the ink of every page seen
 * and the laser. Built from the snapshot (`GET .../board`) and the topic's events; framework-free, so the live
 * pages and the tests drive it the same way.
 */
export class BoardState {
  readonly #events = new Emitter<BoardStateEvents>();
  readonly #pages = new Map<string, PageInk>();
  #stage: BoardStage = NO_STAGE;
  #writer: BoardWriterState = null;
  readonly laser = new LaserTrail();
  readonly #now: () => number;
  /** This reader's user id: the echo of their own strokes (already drawn here) is skipped. */
  #me: string | null;

  constructor(me: string | null, now: () => number = () => performance.now()) {
    this.#me = me;
    this.#now = now;
  }

  on<K extends keyof BoardStateEvents>(event: K, listener: (value: BoardStateEvents[K]) => void): () => void {
    return this.#events.on(event, listener);
  }

  /** Sets this reader's user id (known once the current user is read). */
  setMe(me: string | null): void {
    this.#me = me;
  }

  get stage(): BoardStage {
    return this.#stage;
  }

  get writer(): BoardWriterState {
    return this.#writer;
  }

  /** The ink of a page (an empty page the first time it is asked for). */
  ink(ref: BoardPageRef): PageInk {
    const key = pageKey(ref);
    let ink = this.#pages.get(key);
    if (!ink) {
      ink = new PageInk();
      this.#pages.set(key, ink);
    }
    return ink;
  }

  /** Replaces everything with a snapshot: the stage, the writer and every stroke of every page. */
  load(snapshot: BoardSnapshot): void {
    this.#pages.clear();
    for (const stroke of snapshot.strokes) {
      this.ink({ materialId: stroke.material_id, page: stroke.page }).load([fromStored(stroke)]);
    }
    this.#writer = snapshot.writer
      ? { userId: snapshot.writer.user_id, nickname: snapshot.writer.nickname }
      : null;
    this.#setStage({
      materialId: snapshot.stage.material_id,
      page: snapshot.stage.page,
      blankPages: snapshot.stage.blank_pages,
      layout: snapshot.stage.layout,
    });
    for (const key of this.#pages.keys()) this.#events.emit('inkChanged', key);
  }

  /** Applies one event of the board's topic. */
  apply(event: BoardEvent): void {
    switch (event.type) {
      case 'stage':
        this.#setStage(event.stage);
        return;
      case 'writer':
        this.#writer = event.writer;
        this.#events.emit('stageChanged', this.#stage);
        return;
      case 'ink':
        if (event.by === this.#me && this.ink(event).has(event.strokeId)) return;
        this.ink(event).apply({
          id: event.strokeId,
          tool: event.tool,
          color: event.color,
          width: event.width,
          points: event.points,
          done: event.done,
          from: event.from,
          ...(event.text === null ? {} : { text: event.text }),
        });
        this.#events.emit('inkChanged', pageKey(event));
        return;
      case 'erase':
        this.ink(event).erase(event.strokeIds);
        this.#events.emit('inkChanged', pageKey(event));
        return;
      case 'clear':
        this.ink(event).clear();
        this.#events.emit('inkChanged', pageKey(event));
        return;
      case 'pointer':
        if (event.x !== null && event.y !== null) this.laser.add(event.x, event.y, this.#now());
        this.#events.emit('pointerMoved', undefined);
        return;
    }
  }

  /** Tells the listeners that a page's ink changed here (the writer drew on it). */
  touch(ref: BoardPageRef): void {
    this.#events.emit('inkChanged', pageKey(ref));
  }

  #setStage(stage: BoardStage): void {
    this.#stage = stage;
    this.#events.emit('stageChanged', stage);
  }
}
