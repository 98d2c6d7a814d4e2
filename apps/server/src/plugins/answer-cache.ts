import { createHash } from 'node:crypto';

/** A cached answer: its UTF-8 body and the entity tag clients send back in If-None-Match. */
export type CachedAnswer = { readonly body: Buffer; readonly etag: string };

/**
 * The read cache's answers: a micro-cache of public reads (answers that are the same for every caller, such as
 * class lists and details), as serialized bytes keyed by URL. Every write request handled by this process
 * moves it to a new generation, so this process never answers a read older than its own last write; an entry
 * also expires after `ttlMs`, which bounds how long a write made through another server process stays unseen.
 */
export class AnswerCache {
  readonly ttlMs: number;
  readonly maxEntries: number;
  #generation = 0;
  readonly #entries = new Map<string, CachedAnswer & { generation: number; expiresAt: number }>();

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

  get(key: string, now = Date.now()): CachedAnswer | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.generation !== this.#generation || entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Stores an answer (body kept encoded: a hit costs no UTF-8 encoding) unless a write happened since `generation`. */
  set(key: string, answer: CachedAnswer, generation: number, now = Date.now()): void {
    if (!this.enabled || generation !== this.#generation) return;
    // Bounded: a flood of distinct URLs (page=1..n) pushes out the oldest entries rather than growing it.
    this.#entries.delete(key);
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { body: answer.body, etag: answer.etag, generation, expiresAt: now + this.ttlMs });
  }

  /** Called for every write: all entries become stale at once. */
  invalidate(): void {
    this.#generation += 1;
    this.#entries.clear();
  }
}

const TRAILING_TIMESTAMP = /,"timestamp":\d+\}$/;

/**
 * A weak entity tag of a JSON envelope: a hash of it without its trailing `timestamp` (when the answer was
 * made), so the same data gets the same tag after the cache refills and on every server; the client's copy
 * differs from a fresh answer only in that timestamp (semantically equivalent, hence weak).
 */
export function envelopeTag(json: string): string {
  const hash = createHash('sha1').update(json.replace(TRAILING_TIMESTAMP, '}')).digest('base64url');
  return `W/"${hash}"`;
}

/** True when an If-None-Match header names `etag` or is `*` (weak comparison, as RFC 9110 asks for it). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}
