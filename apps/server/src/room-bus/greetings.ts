import type { RoomRole } from '@sea/contract/chat';
import type { Delivery } from './delivery.ts';
import type { RoomLog } from './room-ports.ts';
import type { Subscription } from './subscriptions.ts';

/**
 * What a new subscriber of a topic is told first: the room's current state, as bodies of the topic's own
 * events (see {@link Greetings}).
 */
export type Greeting = (roomId: number, userId: string, role: RoomRole) => Promise<unknown[]>;

/** Reads of a greeting before it is sent even though news of its topic keeps arriving meanwhile. */
const GREETING_TRIES = 3;
/** Destinations whose news is counted at once; only a change during a greeting's read matters. */
const MAX_COUNTED = 10_000;
let greetingCount = 0;

/**
 * The greetings of topic prefixes: a new subscriber of a greeted topic hears the room's current state before
 * its SUBSCRIBE's RECEIPT, so a client that joins (or comes back) does not wait for the next change to know it.
 */
export class Greetings {
  readonly #delivery: Delivery;
  readonly #log: RoomLog;
  readonly #byPrefix = new Map<string, Greeting>();
  /** Room events heard so far, by destination of a greeted topic: a greeting read meanwhile may be old. */
  readonly #news = new Map<string, number>();

  constructor(delivery: Delivery, log: RoomLog) {
    this.#delivery = delivery;
    this.#log = log;
  }

  add(prefix: string, greeting: Greeting): void {
    this.#byPrefix.set(prefix, greeting);
  }

  /** A room event of `destination` arrived: a greeting of its topic being read now may be older. */
  heard(destination: string): void {
    for (const prefix of this.#byPrefix.keys()) {
      if (!destination.startsWith(prefix)) continue;
      // Forgetting old counts now and then is harmless: only a change during a read matters.
      if (this.#news.size >= MAX_COUNTED) this.#news.clear();
      this.#news.set(destination, (this.#news.get(destination) ?? 0) + 1);
    }
  }

  /** Tells a new subscription its topic's state, if the topic is greeted; `current` says it still stands. */
  async greet(subscription: Subscription, current: () => boolean): Promise<void> {
    const { subscriber, topic, role } = subscription;
    const greeting = [...this.#byPrefix].find(([prefix]) => topic.destination.startsWith(prefix))?.[1];
    if (!greeting) return;
    // News of the topic delivered while the state was being read may be newer than what the read saw: the
    // state is read again then, so the greeting never undoes a change the subscriber has already heard.
    for (let tries = 1; ; tries += 1) {
      const before = this.#news.get(topic.destination) ?? 0;
      let bodies: unknown[];
      try {
        bodies = await greeting(topic.roomId, subscriber.userId, role);
      } catch (error) {
        this.#log('warn', `the current state of ${topic.destination} could not be read`, error);
        return;
      }
      if (!current()) return;
      if ((this.#news.get(topic.destination) ?? 0) !== before && tries < GREETING_TRIES) continue;
      for (const body of bodies) this.#delivery.sendNow(subscription, `state-${++greetingCount}`, body);
      return;
    }
  }
}
