import type { SocketHandler } from '../plugins/websocket.ts';
import { SockJsSession } from './sockjs-session.ts';
import type { StompTransport } from './stomp-session-options.ts';

/** SockJS intervals of the reference server and Spring's: a heartbeat after 25 s idle, 5 s to come back. */
export const SOCKJS_HEARTBEAT_MS = 25_000;
export const SOCKJS_DISCONNECT_MS = 5_000;

export interface SockJsTimings {
  heartbeatMs?: number;
  disconnectMs?: number;
}

/** The SockJS sessions of this server over HTTP transports, by the id their client chose. */
export class SockJsSessions {
  readonly #sessions = new Map<string, SockJsSession>();
  readonly #opened: (transport: StompTransport) => SocketHandler;
  readonly #heartbeatMs: number;
  readonly #disconnectMs: number;

  constructor(opened: (transport: StompTransport) => SocketHandler, timings: SockJsTimings = {}) {
    this.#opened = opened;
    this.#heartbeatMs = timings.heartbeatMs ?? SOCKJS_HEARTBEAT_MS;
    this.#disconnectMs = timings.disconnectMs ?? SOCKJS_DISCONNECT_MS;
  }

  /** The session of `id`, begun on the client's first receiving request (the protocol lets it name it). */
  take(id: string): SockJsSession {
    const known = this.#sessions.get(id);
    if (known) return known;
    const session = new SockJsSession({
      heartbeatMs: this.#heartbeatMs,
      disconnectMs: this.#disconnectMs,
      opened: this.#opened,
      gone: () => {
        if (this.#sessions.get(id) === session) this.#sessions.delete(id);
      },
    });
    this.#sessions.set(id, session);
    return session;
  }

  find(id: string): SockJsSession | undefined {
    return this.#sessions.get(id);
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Server shutdown: every client hears the close frame if it is listening, and every session ends. */
  closeAll(): void {
    for (const session of [...this.#sessions.values()]) {
      session.close();
      session.terminate();
    }
  }
}
