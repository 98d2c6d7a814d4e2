import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RecordingState } from '@sea/contract/sessions';

/** A live session that has just ended, as `sessionEnded` tells it. */
export type EndedSession = {
  id: number;
  classId: number;
  mediaKey: string;
  nodeId: string;
  startedAt: Date;
  endedAt: Date;
  /** `processing` when it was recorded (the replay job takes it from there), else `none`. */
  recordingState: RecordingState;
};

/**
 * The lifecycle events of the domains, each told once its change is stored. The domain that makes the change
 * emits; every module that acts on it subscribes in its own register function, so no route tells another
 * domain of an ending by calling it.
 */
export type DomainEvents = {
  /**
   * A live session ended, however it ended: the media node reported the room closed, a node that came back
   * after a crash no longer had it, or the sweep ended the sessions of a silent node (media nodes emit it).
   */
  sessionEnded: EndedSession;
  /** A recorded live session started: its class went live with it (media nodes emit it). */
  recordingStarted: { classId: number; sessionId: number };
  /** A session's replay was made and checked (the replay job). */
  replayReady: { classId: number; sessionId: number };
  /** A class was deleted (the classes routes). */
  classDeleted: { classId: number };
  /** A student's enrolment ended, 수강 취소 (the enrolments routes). */
  enrolmentEnded: { classId: number; userId: string };
  /** A user withdrew; `classIds`: the classes they taught, deleted with the withdrawal (the users routes). */
  userWithdrawn: { userId: string; classIds: number[] };
};

export type EventName = keyof DomainEvents;

/** Told about one event; may be async (its failure is logged, never thrown at the emitter). */
export type Listener<E extends EventName> = (event: DomainEvents[E]) => unknown;

/** The app's domain events: `on` to subscribe, `emit` after the change is stored. */
export class Events {
  readonly #listeners = new Map<EventName, Set<(event: never) => unknown>>();
  readonly #log: FastifyBaseLogger;

  constructor(log: FastifyBaseLogger) {
    this.#log = log;
  }

  /** Adds a listener (told in the order listeners subscribed); answers the function that removes it. */
  on<E extends EventName>(name: E, listener: Listener<E>): () => void {
    const listeners = this.#listeners.get(name) ?? new Set();
    this.#listeners.set(name, listeners);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /**
   * Tells every listener of `name`, one after another, each awaited; resolves when all have answered. A
   * listener that fails is logged and the next one is told: the emitter's change is stored already.
   */
  async emit<E extends EventName>(name: E, event: DomainEvents[E]): Promise<void> {
    for (const listener of [...(this.#listeners.get(name) ?? [])]) {
      try {
        await (listener as Listener<E>)(event);
      } catch (error) {
        this.#log.error({ err: error, event: name, data: event }, `a ${name} listener failed`);
      }
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The domain events (see {@link DomainEvents}): who emits each, and who acts on it. */
    events: Events;
  }
}

/** Makes the domain events available to every module as `app.events`. */
export function registerEvents(app: FastifyInstance): void {
  app.decorate('events', new Events(app.log));
}
