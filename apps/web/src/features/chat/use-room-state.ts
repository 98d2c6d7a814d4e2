import { useEffect, useState } from 'react';
import type { ChatConnection } from './chat-connection.ts';

/**
 * A piece of room state kept from a topic of the chat connection: read with `load` whenever the connection
 * (re)connects (after subscribing, so nothing falls in between), then changed by each body on `destination`.
 */
export function useRoomState<T>(
  connection: ChatConnection | null,
  destination: string,
  initial: T,
  load: () => Promise<T>,
  apply: (state: T, body: unknown) => T,
): [T, (change: (state: T) => T) => void] {
  const [state, setState] = useState<T>(initial);
  useEffect(() => {
    if (!connection) return undefined;
    let stopped = false;
    const reload = (): void => {
      load().then(
        (value) => {
          if (!stopped) setState(value);
        },
        (error: unknown) => console.warn(`${destination} could not be loaded`, error),
      );
    };
    const unwatch = connection.watch(destination, (body) => setState((current) => apply(current, body)));
    const unlisten = connection.on('stateChanged', (next) => {
      if (next === 'connected') reload();
    });
    if (connection.state === 'connected') reload();
    return () => {
      stopped = true;
      unwatch();
      unlisten();
    };
    // `load` and `apply` are read once per connection: callers pass fresh closures on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [connection, destination]);
  return [state, setState];
}
