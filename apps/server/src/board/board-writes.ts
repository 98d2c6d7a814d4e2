import type { Database } from '../db/database.ts';
import type { RoomLog } from '../room-bus/room-ports.ts';
import { appendInk, type InkAppend } from './board-store.ts';

/** How long pieces of ink wait to be written together (a stroke sends one about every 16 to 50 ms). */
export const INK_FLUSH_MS = 100;

/**
 * The board's writes of one server, in the order they were made. Ink is handed to the subscribers first and
 * written after: pieces of one stroke gather for {@link INK_FLUSH_MS} and go in one statement, so a teacher
 * drawing continuously costs about ten writes a second, whatever the audience. Any other write (an erase, a
 * page cleared) first writes the ink before it. A failed write is logged and the next one still runs. `flush`
 * answers once everything handed so far is stored (a late joiner's read, the server's close).
 */
export class BoardWrites {
  readonly #db: Database;
  readonly #log: RoomLog;
  readonly #pending = new Map<string, InkAppend>();
  #chain: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;

  constructor(db: Database, log: RoomLog) {
    this.#db = db;
    this.#log = log;
  }

  /** Queues a piece of a stroke; it joins the stroke's pieces still waiting. */
  ink(piece: InkAppend): void {
    const key = `${piece.sessionId}:${piece.materialId}:${piece.page}:${piece.strokeId}`;
    const waiting = this.#pending.get(key);
    if (waiting === undefined) this.#pending.set(key, { ...piece, points: [...piece.points] });
    else {
      waiting.points.push(...piece.points);
      waiting.done ||= piece.done;
      waiting.endedAt = piece.endedAt;
    }
    this.#timer ??= setTimeout(() => void this.flush(), INK_FLUSH_MS);
  }

  /** Runs `write` after every write handed before it (waiting ink included); answers when it is done. */
  then(name: string, write: (db: Database) => Promise<void>): Promise<void> {
    this.#takeInk();
    return this.#run(name, write);
  }

  /** Answers once everything handed so far is stored. */
  flush(): Promise<void> {
    this.#takeInk();
    return this.#chain;
  }

  #takeInk(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.size === 0) return;
    const appends = [...this.#pending.values()];
    this.#pending.clear();
    void this.#run('board ink write', (db) => appendInk(db, appends));
  }

  #run(name: string, write: (db: Database) => Promise<void>): Promise<void> {
    this.#chain = this.#chain.then(() =>
      write(this.#db).catch((error: unknown) => this.#log('error', `${name} failed`, error)),
    );
    return this.#chain;
  }
}
