import { NOTIFICATION_EVENT, type NotificationItem } from '@sea/contract/notifications';
import { Emitter } from '../../lib/emitter.ts';

export type NotificationStreamState = 'connecting' | 'connected' | 'disconnected' | 'failed';

export type NotificationStreamEvents = {
  /** A new notice of the signed-in user arrived. */
  notification: NotificationItem;
  /** The state changed (see {@link NotificationStream.state}). */
  stateChanged: NotificationStreamState;
};

export type NotificationStreamOptions = {
  /** The stream's URL (`GET /api/notifications/stream`). */
  url: string;
  /** The current access token, or null when logged out (then the stream stops). */
  token: () => string | null;
  /** Renews the tokens after a 401; true when a new access token is stored. */
  renew: () => Promise<boolean>;
  fetch?: typeof fetch;
  /** Waits between reconnections: the first, doubled each time up to the last. */
  retryDelaysMs?: { first: number; max: number };
  /** Gives up ('failed') after this many reconnections in a row that never connected. */
  maxRetries?: number;
};

/**
 * The signed-in user's notice stream (Server-Sent Events read with `fetch`, so the bearer token travels in a
 * header). Connects at once; after a drop it reconnects with growing waits (bounded), renews the token once
 * after a 401, and ends 'failed' after too many failures in a row. {@link close} is idempotent and final.
 */
export class NotificationStream {
  readonly events = new Emitter<NotificationStreamEvents>();
  readonly #options: Required<Omit<NotificationStreamOptions, 'fetch'>> & { fetch: typeof fetch };
  #state: NotificationStreamState = 'connecting';
  #abort: AbortController | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #failures = 0;
  #closed = false;

  constructor(options: NotificationStreamOptions) {
    this.#options = {
      retryDelaysMs: { first: 1_000, max: 30_000 },
      maxRetries: 20,
      fetch: (...args) => fetch(...args),
      ...options,
    };
    void this.#connect();
  }

  /** 'connecting' until the server answers, 'connected' while open, 'disconnected' between attempts. */
  get state(): NotificationStreamState {
    return this.#state;
  }

  /** Stops for good: no more events, no reconnection. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#abort?.abort();
    this.#setState('disconnected');
  }

  async #connect(renewed = false): Promise<void> {
    const token = this.#options.token();
    if (this.#closed) return;
    if (token === null) {
      this.close();
      return;
    }
    this.#setState('connecting');
    this.#abort = new AbortController();
    try {
      const response = await this.#options.fetch(this.#options.url, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: this.#abort.signal,
      });
      if (response.status === 401 && !renewed) {
        if (await this.#options.renew()) return this.#connect(true);
      }
      if (!response.ok || response.body === null) throw new Error(`status ${response.status}`);
      this.#failures = 0;
      this.#setState('connected');
      await this.#read(response.body);
    } catch (error) {
      if (this.#closed) return;
      // Once per outage: each further attempt's failure is the browser's own line already.
      if (this.#failures === 0) console.warn('web: the notice stream dropped', error);
    }
    if (!this.#closed) this.#retry();
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        this.#dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
      }
    }
  }

  #dispatch(block: string): void {
    let name = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (name !== NOTIFICATION_EVENT || data.length === 0) return;
    try {
      this.events.emit('notification', JSON.parse(data.join('\n')) as NotificationItem);
    } catch (error) {
      console.warn('web: an unreadable notice was skipped', error);
    }
  }

  #retry(): void {
    this.#failures += 1;
    if (this.#failures > this.#options.maxRetries) {
      this.#setState('failed');
      return;
    }
    this.#setState('disconnected');
    const { first, max } = this.#options.retryDelaysMs;
    const delay = Math.min(max, first * 2 ** (this.#failures - 1));
    this.#timer = setTimeout(() => void this.#connect(), delay);
  }

  #setState(state: NotificationStreamState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.events.emit('stateChanged', state);
  }
}
