/**
 * Typed events by name for the realtime classes (the chat connection, the signalling client, the live clients),
 * shaped like the media service's `Signal`: {@link on} returns the function that removes the listener, so an
 * owner can release every subscription it made; {@link emit} calls every listener present when the emission
 * starts, and a throwing listener is reported without stopping the others or the emitter's own state machine.
 */
export class Emitter<Events extends Record<string, unknown>> {
  readonly #listeners = new Map<keyof Events, Set<(value: never) => void>>();

  /** Listens to an event; returns the function that stops listening (idempotent). */
  on<K extends keyof Events>(event: K, listener: (value: Events[K]) => void): () => void {
    // Wrapped so the same function can listen twice and be removed once each.
    const entry = (value: Events[K]) => listener(value);
    const set = this.#listeners.get(event) ?? new Set();
    this.#listeners.set(event, set);
    set.add(entry as (value: never) => void);
    return () => {
      set.delete(entry as (value: never) => void);
    };
  }

  /** Calls the event's listeners with `value`. */
  emit<K extends keyof Events>(event: K, value: Events[K]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      try {
        (listener as (value: Events[K]) => void)(value);
      } catch (error) {
        // A listener's bug must not break the emitter (a connection's state machine): reported, not hidden.
        console.error('web: a listener failed', error);
      }
    }
  }

  /** Number of current listeners, over every event. */
  get size(): number {
    let count = 0;
    for (const set of this.#listeners.values()) count += set.size;
    return count;
  }

  /** Removes every listener. */
  clear(): void {
    this.#listeners.clear();
  }
}
