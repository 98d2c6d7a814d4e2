import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { newRedis } from '../load-redis.ts';

type Log = (message: string, error: unknown) => void;

/**
 * Tells the other server processes sharing Redis that this one handled a write, so they drop their read
 * caches at once instead of after READ_CACHE_MS. Best effort: while Redis is away, the TTL is the bound.
 */
export class ReadCacheSync {
  readonly #origin = randomUUID();
  readonly #channel: string;
  readonly #pub: Redis;
  readonly #sub: Redis;
  readonly #subscribed: Promise<void>;

  constructor(url: string, channel: string, onRemoteWrite: () => void, log: Log) {
    this.#channel = channel;
    this.#pub = newRedis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    this.#sub = newRedis(url, { maxRetriesPerRequest: null });
    this.#pub.on('error', (error: unknown) => log('read cache redis publisher', error));
    this.#sub.on('error', (error: unknown) => log('read cache redis subscriber', error));
    this.#sub.on('message', (_channel: string, origin: string) => {
      if (origin !== this.#origin) onRemoteWrite();
    });
    // Writes announced while disconnected were missed: start clean after a reconnect.
    this.#sub.on('ready', onRemoteWrite);
    this.#subscribed = this.#sub.subscribe(channel).then(
      () => undefined,
      (error: unknown) => log('read cache redis subscribe failed', error),
    );
  }

  /** Resolves once the subscription is confirmed (or failed and was logged). */
  ready(): Promise<void> {
    return this.#subscribed;
  }

  /** Announces a write of this process to the others. */
  announceWrite(): void {
    this.#pub.publish(this.#channel, this.#origin).catch(() => {
      // Logged by the client's error handler; the other processes' TTL still bounds their staleness.
    });
  }

  async close(): Promise<void> {
    this.#sub.disconnect();
    this.#pub.disconnect();
  }
}
