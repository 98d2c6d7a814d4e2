import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { newRedis } from '../load-redis.ts';
import type { NotificationItem } from '@sea/contract/notifications';

type Listener = { notice: (item: NotificationItem) => void; end: () => void };
type Log = (message: string, error: unknown) => void;
/** A notice for the user's streams, or `end`: the user is gone and their streams close. */
type Delivery = { origin: string; userId: string } & ({ item: NotificationItem } | { end: true });

/**
 * Hands new notices to the open streams of their users: those on this process at once, and, with Redis, those
 * on the other server processes through one pub/sub channel. Best effort: a notice is stored before it is
 * sent, and a page that was not listening reads it from the list.
 */
export class NotificationHub {
  readonly #origin = randomUUID();
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #redis: { pub: Redis; sub: Redis; channel: string } | null;

  constructor(redis: { url: string; channel: string; log: Log } | null) {
    if (redis === null) {
      this.#redis = null;
      return;
    }
    const pub = newRedis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const sub = newRedis(redis.url, { maxRetriesPerRequest: null });
    pub.on('error', (error: unknown) => redis.log('notification redis publisher', error));
    sub.on('error', (error: unknown) => redis.log('notification redis subscriber', error));
    sub.on('message', (_channel: string, message: string) => {
      try {
        const delivery = JSON.parse(message) as Delivery;
        if (delivery.origin !== this.#origin) this.#here(delivery);
      } catch (error) {
        redis.log('a notification from redis could not be read', error);
      }
    });
    sub.subscribe(redis.channel).catch((error: unknown) => redis.log('notification subscribe failed', error));
    this.#redis = { pub, sub, channel: redis.channel };
  }

  /**
   * Calls `listener.notice` with every new notice of `userId` until the answer is called, and `listener.end`
   * if the user's streams are ended ({@link end}).
   */
  listen(userId: string, listener: Listener): () => void {
    let set = this.#listeners.get(userId);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(userId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(userId);
    };
  }

  /** Sends stored notices to their users' streams, here and on the other processes. */
  deliver(deliveries: readonly { userId: string; item: NotificationItem }[]): void {
    for (const { userId, item } of deliveries) this.#send({ origin: this.#origin, userId, item });
  }

  /** Ends every open stream of `userId` (they withdrew), here and on the other processes. */
  end(userId: string): void {
    this.#send({ origin: this.#origin, userId, end: true });
  }

  /** Number of open streams (for tests). */
  get listenerCount(): number {
    let total = 0;
    for (const set of this.#listeners.values()) total += set.size;
    return total;
  }

  close(): void {
    this.#listeners.clear();
    this.#redis?.sub.disconnect();
    this.#redis?.pub.disconnect();
  }

  #send(delivery: Delivery): void {
    this.#here(delivery);
    if (this.#redis === null) return;
    this.#redis.pub.publish(this.#redis.channel, JSON.stringify(delivery)).catch(() => {
      // Logged by the client's error handler; a notice is stored and listed all the same.
    });
  }

  #here(delivery: Delivery): void {
    for (const listener of [...(this.#listeners.get(delivery.userId) ?? [])]) {
      if ('end' in delivery) listener.end();
      else listener.notice(delivery.item);
    }
  }
}
