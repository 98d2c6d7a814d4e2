import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { NotificationItem } from '@sea/contract/notifications';

type Listener = (item: NotificationItem) => void;
type Log = (message: string, error: unknown) => void;
type Delivery = { origin: string; userId: string; item: NotificationItem };

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
    const pub = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const sub = new Redis(redis.url, { maxRetriesPerRequest: null });
    pub.on('error', (error: unknown) => redis.log('notification redis publisher', error));
    sub.on('error', (error: unknown) => redis.log('notification redis subscriber', error));
    sub.on('message', (_channel: string, message: string) => {
      try {
        const delivery = JSON.parse(message) as Delivery;
        if (delivery.origin !== this.#origin) this.#deliverHere(delivery.userId, delivery.item);
      } catch (error) {
        redis.log('a notification from redis could not be read', error);
      }
    });
    sub.subscribe(redis.channel).catch((error: unknown) => redis.log('notification subscribe failed', error));
    this.#redis = { pub, sub, channel: redis.channel };
  }

  /** Calls `listener` with every new notice of `userId` until the answer is called. */
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
    for (const { userId, item } of deliveries) {
      this.#deliverHere(userId, item);
      if (this.#redis !== null) {
        const message = JSON.stringify({ origin: this.#origin, userId, item } satisfies Delivery);
        this.#redis.pub.publish(this.#redis.channel, message).catch(() => {
          // Logged by the client's error handler; the notice is stored and listed all the same.
        });
      }
    }
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

  #deliverHere(userId: string, item: NotificationItem): void {
    for (const listener of this.#listeners.get(userId) ?? []) listener(item);
  }
}
