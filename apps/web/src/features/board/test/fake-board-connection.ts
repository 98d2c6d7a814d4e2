import type { BoardEvent } from '@sea/contract/board';
import type { BoardConnection } from '../use-board.ts';

/**
 * A room connection for the board's tests: records what is sent, and delivers topic events by hand. With
 * `watching: false` the board's subscription takes effect only at {@link startWatching}.
 */
export function fakeBoardConnection({ watching = true }: { watching?: boolean } = {}) {
  const listeners = new Map<string, Set<(body: unknown) => void>>();
  const sent: { destination: string; body: object }[] = [];
  const watchingListeners = new Set<(destination: string) => void>();
  let subscribed = watching;
  const connection: BoardConnection = {
    state: 'connected',
    watch: (destination, listener) => {
      const set = listeners.get(destination) ?? new Set();
      listeners.set(destination, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    on: ((event: string, listener: (destination: string) => void) => {
      if (event !== 'watching') return () => undefined;
      watchingListeners.add(listener);
      return () => watchingListeners.delete(listener);
    }) as BoardConnection['on'],
    isWatching: () => subscribed,
    publish: (destination, body) => {
      sent.push({ destination, body });
      return true;
    },
  };
  return {
    connection,
    sent,
    /** The subscription to `destination` takes effect (the server's receipt arrived). */
    startWatching: (destination: string) => {
      subscribed = true;
      for (const listener of watchingListeners) listener(destination);
    },
    /** Delivers an event of the board's topic to every listener. */
    deliver: (destination: string, event: BoardEvent) => {
      for (const listener of listeners.get(destination) ?? []) listener(event);
    },
  };
}
