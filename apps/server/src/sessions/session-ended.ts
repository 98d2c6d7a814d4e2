import type { FastifyBaseLogger } from 'fastify';
import type { EndedSession } from './session-store.ts';

/** Told about one ended session; may be async (its failure is logged, never thrown). */
export type SessionEndedListener = (session: EndedSession) => unknown;

/**
 * The seam after a live session ends, however it ended: the media node reported the room closed, a node that
 * came back after a crash no longer had it, or the sweep ended the sessions of a silent node. Each ended
 * session is announced once, after the change is stored; the replay job subscribes here
 * (`app.sessionEnded.subscribe(...)` in app.ts) to enqueue the replay of a session left `processing`.
 */
export class SessionEnded {
  readonly #listeners = new Set<SessionEndedListener>();
  readonly #log: FastifyBaseLogger;

  constructor(log: FastifyBaseLogger) {
    this.#log = log;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: SessionEndedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener about each session, one after another; resolves when all have answered. */
  async emit(sessions: EndedSession[]): Promise<void> {
    for (const session of sessions) {
      for (const listener of [...this.#listeners]) {
        try {
          await listener(session);
        } catch (error) {
          this.#log.error({ err: error, sessionId: session.id }, 'a session-ended listener failed');
        }
      }
    }
  }
}
