/** Reads something's current state and publishes it (a poll's counts...). */
export type PublishLatest = () => Promise<void>;

export interface LatestStateThrottleOptions {
  /** Publications per second per key at most. */
  perSecond: number;
  log: (level: 'warn' | 'error', message: string, error?: unknown) => void;
  now?: () => number;
}

type Entry = {
  lastStart: number;
  timer: ReturnType<typeof setTimeout> | null;
  /** The run in progress (runs of one key never overlap), or null. */
  running: Promise<void> | null;
  publish: PublishLatest;
};

/**
 * Publishes the whole current state of a key (a poll) at most `perSecond` times a second, whatever the number
 * of changes: each change asks for a publication, the first after a quiet moment goes at once, the ones during
 * a slot are served together by one publication at the slot's end. A publication reads the state when it runs,
 * so the last one always carries every change asked for before it started. Runs of one key never overlap, so
 * they are published in the order they read.
 */
export class LatestStateThrottle<K> {
  readonly #intervalMs: number;
  readonly #log: LatestStateThrottleOptions['log'];
  readonly #now: () => number;
  readonly #entries = new Map<K, Entry>();
  #closed = false;

  constructor(options: LatestStateThrottleOptions) {
    this.#intervalMs = 1000 / options.perSecond;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
  }

  /** A change of `key`: its state will be published within one slot. */
  changed(key: K, publish: PublishLatest): void {
    if (this.#closed) return;
    const entry = this.#entries.get(key) ?? { lastStart: -Infinity, timer: null, running: null, publish };
    entry.publish = publish;
    this.#entries.set(key, entry);
    if (entry.timer !== null) return;
    const wait = Math.max(0, entry.lastStart + this.#intervalMs - this.#now());
    entry.timer = setTimeout(() => void this.#run(key, entry), wait);
    entry.timer.unref?.();
  }

  /** A change that must be told at once (a poll closed): published now, after any run in progress. */
  changedNow(key: K, publish: PublishLatest): void {
    if (this.#closed) return;
    const entry = this.#entries.get(key);
    if (entry?.timer) clearTimeout(entry.timer);
    const now = entry ?? { lastStart: -Infinity, timer: null, running: null, publish };
    now.timer = null;
    now.publish = publish;
    this.#entries.set(key, now);
    void this.#run(key, now);
  }

  /** Stops every pending publication. */
  close(): void {
    this.#closed = true;
    for (const entry of this.#entries.values()) if (entry.timer) clearTimeout(entry.timer);
    this.#entries.clear();
  }

  async #run(key: K, entry: Entry): Promise<void> {
    entry.timer = null;
    const before = entry.running;
    const run = (async () => {
      await before;
      entry.lastStart = this.#now();
      try {
        await entry.publish();
      } catch (error) {
        this.#log('error', 'a state update could not be published', error);
      }
    })();
    entry.running = run;
    await run;
    if (entry.running !== run) return;
    entry.running = null;
    // Forget a key once a slot passed without a change: polls come and go all day.
    const forget = setTimeout(() => {
      if (entry.timer === null && entry.running === null && this.#entries.get(key) === entry) {
        this.#entries.delete(key);
      }
    }, this.#intervalMs);
    forget.unref?.();
  }
}
