/**
 * A micro-cache of public class reads (lists and details are the same for every caller), as serialized
 * bytes keyed by URL. Every write request handled by this process moves it to a new generation, so this
 * process never answers a class read older than its own last write; an entry also expires after `ttlMs`,
 * which bounds how long a write made through another server process stays unseen.
 */
export class ReadCache {
  readonly ttlMs: number;
  readonly maxEntries: number;
  #generation = 0;
  readonly #entries = new Map<string, { body: Buffer; generation: number; expiresAt: number }>();

  constructor(ttlMs: number, maxEntries = 1000) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The current generation; pass it back to `set` so a read that raced a write is not stored. */
  get generation(): number {
    return this.#generation;
  }

  get(key: string, now = Date.now()): Buffer | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.generation !== this.#generation || entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.body;
  }

  /** Stores `body` (kept encoded, so a hit costs no UTF-8 encoding) unless a write happened since `generation`. */
  set(key: string, body: Buffer, generation: number, now = Date.now()): void {
    if (!this.enabled || generation !== this.#generation) return;
    // Bounded: a flood of distinct URLs (page=1..n) pushes out the oldest entries rather than growing it.
    this.#entries.delete(key);
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { body, generation, expiresAt: now + this.ttlMs });
  }

  /** Called for every write: all entries become stale at once. */
  invalidate(): void {
    this.#generation += 1;
    this.#entries.clear();
  }
}
