import { and, eq } from 'drizzle-orm';
import { MAX_WHITEBOARD_PAGES, WHITEBOARD_ID } from '@sea/contract/board';
import type { Database } from '../db/database.ts';
import { materials } from '../db/schema.ts';
import { openSessionOf } from '../sessions/session-store.ts';
import { boardState, type PageRef, strokeProgress, strokesOnPage } from './board-store.ts';

/** How long a class's open session is believed live without asking again (a new session is asked at once). */
const SESSION_TTL_MS = 2_000;
/** How long the invited writer is believed (another server may change it for its teacher). */
const WRITER_TTL_MS = 1_000;
/** How long a material's page count is believed (it never changes once ready; a deleted one goes within it). */
const PAGES_TTL_MS = 30_000;
/** Most strokes and pages remembered; past it the memory starts afresh from the database. */
const MAX_REMEMBERED = 50_000;

type Remembered<T> = { value: T; until: number };

/**
 * What the board's actions check on every piece of ink, remembered so that the hot path reads the database as
 * little as possible: whether the class is live (and its session), who may write, how many pages a material
 * has, and each stroke's points so far and each page's strokes (counted here as pieces arrive; read from the
 * database only for a stroke or page this server has not seen, such as one begun on another server).
 */
export class BoardGate {
  readonly #db: Database;
  readonly #now: () => number;
  readonly #sessions = new Map<number, Remembered<number>>();
  readonly #writers = new Map<number, Remembered<string | null>>();
  readonly #pages = new Map<string, Remembered<number | null>>();
  readonly #strokes = new Map<string, { count: number; done: boolean }>();
  readonly #pageStrokes = new Map<string, number>();

  constructor(db: Database, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  /** The class's open session, or null when it is not live. */
  async liveSession(classId: number): Promise<number | null> {
    const known = this.#sessions.get(classId);
    if (known && known.until > this.#now()) return known.value;
    const sessionId = await openSessionOf(this.#db, classId);
    if (sessionId === null) this.#sessions.delete(classId);
    else this.#sessions.set(classId, { value: sessionId, until: this.#now() + SESSION_TTL_MS });
    return sessionId;
  }

  /** Forgets a class's session (it ended). */
  sessionEnded(classId: number): void {
    this.#sessions.delete(classId);
  }

  /** The student invited to write on the session's board, or null. */
  async writer(sessionId: number): Promise<string | null> {
    const known = this.#writers.get(sessionId);
    if (known && known.until > this.#now()) return known.value;
    const { writerId } = await boardState(this.#db, sessionId);
    this.#writers.set(sessionId, { value: writerId, until: this.#now() + WRITER_TTL_MS });
    return writerId;
  }

  /** Remembers a writer just stored here. */
  writerSet(sessionId: number, writerId: string | null): void {
    this.#writers.set(sessionId, { value: writerId, until: this.#now() + WRITER_TTL_MS });
  }

  /** How many pages one can write on: a ready material's of the class, the whiteboard's most; null for none. */
  async pageCount(classId: number, materialId: number): Promise<number | null> {
    if (materialId === WHITEBOARD_ID) return MAX_WHITEBOARD_PAGES;
    const key = `${classId}:${materialId}`;
    const known = this.#pages.get(key);
    if (known && known.until > this.#now()) return known.value;
    const [row] = await this.#db
      .select({ pages: materials.pages, state: materials.state })
      .from(materials)
      .where(and(eq(materials.id, materialId), eq(materials.classId, classId)));
    const pages = row?.state === 'ready' ? row.pages : null;
    this.#pages.set(key, { value: pages, until: this.#now() + PAGES_TTL_MS });
    return pages;
  }

  /** A stroke's points so far and whether it is done; null for a stroke not begun. */
  async stroke(page: PageRef, strokeId: string): Promise<{ count: number; done: boolean } | null> {
    const known = this.#strokes.get(strokeKey(page, strokeId));
    return known ?? (await strokeProgress(this.#db, page, strokeId));
  }

  /** How many strokes are on the page now. */
  async strokesOn(page: PageRef): Promise<number> {
    return this.#pageStrokes.get(pageKey(page)) ?? (await strokesOnPage(this.#db, page));
  }

  /** Counts a piece of a stroke just accepted (`begun`: its first). */
  inked(
    page: PageRef,
    strokeId: string,
    state: { count: number; done: boolean },
    begun: number | null,
  ): void {
    if (this.#strokes.size > MAX_REMEMBERED) this.#strokes.clear();
    if (this.#pageStrokes.size > MAX_REMEMBERED) this.#pageStrokes.clear();
    this.#strokes.set(strokeKey(page, strokeId), state);
    if (begun !== null) this.#pageStrokes.set(pageKey(page), begun + 1);
  }

  /** Forgets a page's stroke count (strokes were erased: the database counts again). */
  erased(page: PageRef): void {
    this.#pageStrokes.delete(pageKey(page));
  }
}

function pageKey(page: PageRef): string {
  return `${page.sessionId}:${page.materialId}:${page.page}`;
}

function strokeKey(page: PageRef, strokeId: string): string {
  return `${pageKey(page)}:${strokeId}`;
}
