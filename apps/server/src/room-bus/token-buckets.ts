export interface TokenBucketOptions {
  /** Largest burst. */
  capacity: number;
  /** Tokens added per second. */
  refillPerSecond: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token buckets keyed by user: a user may send `capacity` messages at once and `refillPerSecond` on average.
 * Buckets that have refilled completely carry no information and are swept, so memory follows active users only.
 */
export class TokenBuckets {
  readonly #options: TokenBucketOptions;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();
  #takesSinceSweep = 0;

  constructor(options: TokenBucketOptions, now: () => number = Date.now) {
    this.#options = options;
    this.#now = now;
  }

  /** Takes one token for `key`; false when the bucket is empty (the caller refuses the action). */
  take(key: string): boolean {
    const now = this.#now();
    this.#sweep(now);
    const bucket = this.#buckets.get(key) ?? { tokens: this.#options.capacity, updatedAt: now };
    const refilled = Math.min(
      this.#options.capacity,
      bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.#options.refillPerSecond,
    );
    bucket.updatedAt = now;
    if (refilled < 1) {
      bucket.tokens = refilled;
      this.#buckets.set(key, bucket);
      return false;
    }
    bucket.tokens = refilled - 1;
    this.#buckets.set(key, bucket);
    return true;
  }

  /** Number of users currently tracked (for tests and metrics). */
  get size(): number {
    return this.#buckets.size;
  }

  #sweep(now: number): void {
    this.#takesSinceSweep += 1;
    if (this.#takesSinceSweep < 1000) return;
    this.#takesSinceSweep = 0;
    const fullAfterMs = (this.#options.capacity / this.#options.refillPerSecond) * 1000;
    for (const [key, bucket] of this.#buckets) {
      if (now - bucket.updatedAt >= fullAfterMs) this.#buckets.delete(key);
    }
  }
}
