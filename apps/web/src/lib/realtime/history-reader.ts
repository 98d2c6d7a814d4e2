import { CHAT_HISTORY_MAX, type ChatMessage } from '@sea/contract/chat';

/** Pages of catch-up read after a reconnect at most (each up to the history route's maximum). */
const MAX_CATCH_UP_PAGES = 20;
/** Reads of one history page before giving up on this connection. */
const HISTORY_TRIES = 4;

/** What a catch-up read: the messages, and which ids it covered (a held one outside may still exist). */
export type CatchUp = { read: ChatMessage[]; covered: (id: number) => boolean };

/**
 * The history reads of a room connection: one page, or a catch-up page by page, each read tried again after
 * 1, 2 and 4 s (times `retryMs`). `current` says whether the connection that asked is still the live one;
 * once it is not, a read stops and answers null. {@link cancel} drops a pending wait.
 */
export class HistoryReader {
  readonly #fetchPage: (after?: number) => Promise<ChatMessage[]>;
  readonly #retryMs: number;
  #retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(fetchPage: (after?: number) => Promise<ChatMessage[]>, retryMs: number) {
    this.#fetchPage = fetchPage;
    this.#retryMs = retryMs;
  }

  /** The latest page, as a fresh panel reads it. */
  async latest(current: () => boolean): Promise<ChatMessage[] | null> {
    const page = await this.#read(() => this.#fetchPage(), current);
    return current() ? page : null;
  }

  /** Everything after `from`, page by page, up to the page limit. */
  async catchUp(from: number, current: () => boolean): Promise<CatchUp | null> {
    const read: ChatMessage[] = [];
    let since = from;
    for (let pages = 0; pages < MAX_CATCH_UP_PAGES; pages += 1) {
      const after = since;
      const page = await this.#read(() => this.#fetchPage(after), current);
      if (!current()) return null;
      read.push(...page);
      const last = page.at(-1);
      if (page.length < CHAT_HISTORY_MAX || last === undefined) return { read, covered: () => true };
      since = last.id;
    }
    // Gave up after the page limit: only what the pages covered is known.
    const covered = read.at(-1)?.id ?? since;
    return { read, covered: (id) => id <= covered };
  }

  /** Drops a wait before a retry: the connection that asked is gone. */
  cancel(): void {
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
  }

  /** One read, tried again after 1, 2 and 4 s; the last failure is thrown. */
  async #read(fetch: () => Promise<ChatMessage[]>, current: () => boolean): Promise<ChatMessage[]> {
    for (let tries = 1; ; tries += 1) {
      try {
        return await fetch();
      } catch (error) {
        if (tries >= HISTORY_TRIES || !current()) throw error;
        // Once per read: a retry's failure is the browser's own line already.
        if (tries === 1) console.warn('chat history read failed; trying again', error);
        await new Promise<void>((resolve) => {
          this.#retryTimer = setTimeout(resolve, this.#retryMs * 2 ** (tries - 1));
        });
        this.#retryTimer = null;
        if (!current()) return [];
      }
    }
  }
}
