import type { BoardEvent } from '@sea/contract/board';
import type { BoardConnection } from '../use-board.ts';

/** A room connection for the board's tests: records what is sent, and delivers topic events by hand. */
export function fakeBoardConnection() {
  const listeners = new Map<string, Set<(body: unknown) => void>>();
  const sent: { destination: string; body: object }[] = [];
  const connection: BoardConnection = {
    state: 'connected',
    watch: (destination, listener) => {
      const set = listeners.get(destination) ?? new Set();
      listeners.set(destination, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    on: () => () => undefined,
    isWatching: () => true,
    publish: (destination, body) => {
      sent.push({ destination, body });
      return true;
    },
  };
  return {
    connection,
    sent,
    /** Delivers an event of the board's topic to every listener. */
    deliver: (destination: string, event: BoardEvent) => {
      for (const listener of listeners.get(destination) ?? []) listener(event);
    },
  };
}
