import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { newRedis } from '../load-redis.ts';
import { z } from 'zod';
import type { FanOut, FanOutTarget, MembershipScope, RoomEvent } from './room-ports.ts';

export interface RedisFanOutOptions {
  url: string;
  /** The pub/sub channel shared by every instance of one deployment. */
  channel: string;
  /** Messages kept for re-publishing while Redis is away; older ones are dropped (they are in the database). */
  maxPending?: number;
  log?: (level: 'info' | 'warn' | 'error', message: string, error?: unknown) => void;
}

const RoomEventSchema = z.object({
  destination: z.string(),
  id: z.string(),
  body: z.unknown(),
  student: z.unknown().optional(),
  own: z.object({ userIds: z.array(z.string()), body: z.unknown() }).optional(),
  throttled: z.literal(true).optional(),
});

/** What goes over the channel: a room event, or the news that memberships may have ended. */
const EnvelopeSchema = z.union([
  z.object({ origin: z.string(), event: RoomEventSchema }),
  z.object({
    origin: z.string(),
    membership: z.union([z.literal('all'), z.object({ classId: z.number().int().positive() })]),
  }),
]);
type Envelope = z.infer<typeof EnvelopeSchema>;

/** Messages published in one round trip at most. */
const MAX_BATCH = 500;

/**
 * Fan-out across server instances through one Redis pub/sub channel. A message goes to this instance's
 * subscribers at once and to Redis tagged with this instance's id, so that it comes back to every other
 * instance and is skipped here: each subscriber gets it once. While Redis is away, publishes wait in a
 * bounded queue and go out when it is back; the receiving side then re-reads from the database what its
 * subscription may have missed (see {@link FanOutTarget.resumed}). Redis failures are logged, never thrown.
 */
export class RedisFanOut implements FanOut {
  readonly #target: FanOutTarget;
  readonly #channel: string;
  readonly #maxPending: number;
  readonly #log: NonNullable<RedisFanOutOptions['log']>;
  readonly #origin = randomUUID();
  readonly #pub: Redis;
  readonly #sub: Redis;
  readonly #subscribed: Promise<void>;
  #pending: string[] = [];
  #flushing = false;
  #closed = false;

  constructor(target: FanOutTarget, options: RedisFanOutOptions) {
    this.#target = target;
    this.#channel = options.channel;
    this.#maxPending = options.maxPending ?? 10_000;
    this.#log = options.log ?? (() => undefined);
    // Publishes fail fast while disconnected (no hidden offline queue): the pending queue below is bounded.
    this.#pub = newRedis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    this.#sub = newRedis(options.url, { maxRetriesPerRequest: null });
    for (const [name, client] of [
      ['publisher', this.#pub],
      ['subscriber', this.#sub],
    ] as const) {
      client.on('error', (error: unknown) => this.#log('warn', `chat redis ${name}`, error));
    }
    this.#pub.on('ready', () => void this.#flush());
    this.#sub.on('message', (channel: string, payload: string) => this.#receive(channel, payload));
    this.#sub.on('close', () => {
      if (!this.#closed) this.#target.suspended();
    });
    this.#sub.on('ready', () => {
      // ioredis resubscribes by itself on reconnect; subscribing again waits until that is confirmed, so
      // that the catch-up read below cannot miss a message published in between.
      this.#sub
        .subscribe(this.#channel)
        .then(() => this.#target.resumed())
        .catch((error: unknown) => this.#log('warn', 'chat redis resubscribe failed', error));
    });
    this.#subscribed = this.#sub.subscribe(this.#channel).then(
      () => undefined,
      (error: unknown) => this.#log('warn', 'chat redis subscribe failed', error),
    );
  }

  /** Resolves once the first subscription is confirmed (or failed and was logged). */
  ready(): Promise<void> {
    return this.#subscribed;
  }

  publishEvent(event: RoomEvent): void {
    this.#target.deliverEvent(event);
    this.#enqueue(JSON.stringify({ origin: this.#origin, event } satisfies Envelope));
    void this.#flush();
  }

  announce(scope: MembershipScope): void {
    this.#enqueue(JSON.stringify({ origin: this.#origin, membership: scope } satisfies Envelope));
    void this.#flush();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#pub.disconnect();
    this.#sub.disconnect();
  }

  #enqueue(payload: string): void {
    this.#pending.push(payload);
    if (this.#pending.length > this.#maxPending) {
      this.#pending.shift();
      this.#log('warn', 'chat redis queue full; dropped the oldest message (it stays in the history)');
    }
  }

  /**
   * Publishes queued messages in order, all that are queued in one round trip (one pipeline on one connection,
   * which Redis runs in order): under a storm a question does not wait for the round trips of the updates queued
   * before it. Stops at the first failure, keeping it and what follows, and waits for the next `ready`.
   */
  async #flush(): Promise<void> {
    if (this.#flushing || this.#closed) return;
    this.#flushing = true;
    try {
      while (this.#pending.length > 0 && this.#pub.status === 'ready') {
        const batch = this.#pending.splice(0, MAX_BATCH);
        const { sent, error } = await this.#publish(batch);
        if (sent === batch.length) continue;
        // What failed may have reached Redis before the failure: publishing it again is safe, receivers drop
        // repeats. It goes back in front of what was queued meanwhile, within the bound.
        this.#pending.unshift(...batch.slice(sent));
        this.#pending.splice(0, Math.max(0, this.#pending.length - this.#maxPending));
        this.#log('warn', 'chat redis publish failed; will retry when reconnected', error);
        break;
      }
    } finally {
      this.#flushing = false;
    }
  }

  /** Publishes `batch` in one pipeline: how many of it, from the start, Redis took, and the first failure. */
  async #publish(batch: string[]): Promise<{ sent: number; error?: unknown }> {
    const pipeline = this.#pub.pipeline();
    for (const payload of batch) pipeline.publish(this.#channel, payload);
    try {
      const results = (await pipeline.exec()) ?? [];
      const failed = batch.findIndex((_, index) => results[index]?.[0] !== null);
      return failed === -1 ? { sent: batch.length } : { sent: failed, error: results[failed]?.[0] };
    } catch (error) {
      return { sent: 0, error };
    }
  }

  #receive(channel: string, payload: string): void {
    if (channel !== this.#channel) return;
    let envelope: Envelope;
    try {
      envelope = EnvelopeSchema.parse(JSON.parse(payload));
    } catch (error) {
      this.#log('warn', 'chat redis payload ignored', error);
      return;
    }
    if (envelope.origin === this.#origin) return;
    if ('event' in envelope) this.#target.deliverEvent(toRoomEvent(envelope.event));
    else this.#target.recheckMemberships(envelope.membership);
  }
}

/** The parsed event without the keys zod leaves undefined (the event type's optional keys are absent, not undefined). */
function toRoomEvent(event: z.infer<typeof RoomEventSchema>): RoomEvent {
  const out: RoomEvent = { destination: event.destination, id: event.id, body: event.body };
  if (event.student !== undefined) out.student = event.student;
  if (event.own) out.own = event.own;
  if (event.throttled) out.throttled = true;
  return out;
}
