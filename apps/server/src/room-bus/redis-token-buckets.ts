import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { newRedis } from '../load-redis.ts';
import type { TokenBucketOptions, TokenBuckets } from './token-buckets.ts';

export interface RedisTokenBucketsOptions {
  url: string;
  /** Key prefix shared by every instance of one deployment; a user's bucket is `<prefix><userId>`. */
  prefix: string;
  limit: TokenBucketOptions;
  /** Used while Redis is away: the limit then holds per instance. */
  fallback: TokenBuckets;
  log?: (level: 'warn', message: string, error?: unknown) => void;
}

/**
 * One token bucket per key, refilled by Redis's own clock and taken in one script, so instances on one Redis
 * never race each other and their clocks never matter. The key expires once the bucket would be full again.
 */
const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) / 1000 * refill)
local taken = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / refill * 1000) + 1000)
return taken
`;
const TAKE_SHA = createHash('sha1').update(TAKE_SCRIPT).digest('hex');

/** How often a Redis failure is logged at most: while Redis is down, every SEND would log otherwise. */
const LOG_EVERY_MS = 10_000;

/**
 * The per-user send limit shared by every server instance through Redis (`REDIS_URL`): a user who spreads
 * connections over instances still gets one bucket. While Redis is away, the instance's memory buckets decide,
 * so the room keeps working with a per-instance limit until Redis is back.
 */
export class RedisTokenBuckets {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #limit: TokenBucketOptions;
  readonly #fallback: TokenBuckets;
  readonly #log: NonNullable<RedisTokenBucketsOptions['log']>;
  readonly #ready: Promise<void>;
  #loggedAt = 0;

  constructor(options: RedisTokenBucketsOptions) {
    this.#prefix = options.prefix;
    this.#limit = options.limit;
    this.#fallback = options.fallback;
    this.#log = options.log ?? (() => undefined);
    // Fail fast while disconnected (no offline queue): the memory buckets answer instead of a SEND waiting.
    this.#redis = newRedis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    this.#redis.on('error', (error: unknown) => this.#warn('chat rate limit redis', error));
    this.#ready = new Promise((resolve) => this.#redis.once('ready', () => resolve()));
  }

  /** Resolves once Redis is connected (never, while it cannot be reached: callers race it with a timeout). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** Takes one token for `key`; false when the bucket is empty (the caller refuses the action). */
  async take(key: string): Promise<boolean> {
    if (this.#redis.status !== 'ready') return this.#fallback.take(key);
    const args = [1, `${this.#prefix}${key}`, this.#limit.capacity, this.#limit.refillPerSecond] as const;
    try {
      let taken: unknown;
      try {
        taken = await this.#redis.evalsha(TAKE_SHA, ...args);
      } catch (error) {
        // The script is sent once per Redis server (and again after Redis restarted empty).
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        taken = await this.#redis.eval(TAKE_SCRIPT, ...args);
      }
      return taken === 1;
    } catch (error) {
      this.#warn('chat rate limit falls back to this instance', error);
      return this.#fallback.take(key);
    }
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }

  #warn(message: string, error: unknown): void {
    const now = Date.now();
    if (now - this.#loggedAt < LOG_EVERY_MS) return;
    this.#loggedAt = now;
    this.#log('warn', message, error);
  }
}
