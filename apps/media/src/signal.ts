import { log } from './log.ts';

/**
 * A typed event with explicit subscriptions: `subscribe` returns the function that removes the listener, so
 * owners can release every subscription they made, and tests can count what is left ({@link size}).
 */
export class Signal<T extends unknown[] = []> {
  private readonly listeners = new Set<(...args: T) => void>();

  /** Adds a listener; returns the function that removes it (idempotent). */
  subscribe(listener: (...args: T) => void): () => void {
    // Wrapped so the same function can be subscribed twice and removed once each.
    const entry = (...args: T) => listener(...args);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** Calls every listener present when the emission starts; a throwing listener does not stop the others. */
  emit(...args: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch (error) {
        // A listener's bug must not break the emitter's own state machine (e.g. a close cascade): it is
        // reported, not hidden, and the remaining listeners still run.
        log.error({ err: error }, 'a listener failed');
      }
    }
  }

  /** Number of current listeners. */
  get size(): number {
    return this.listeners.size;
  }

  /** Removes every listener. */
  clear(): void {
    this.listeners.clear();
  }
}
