import { useEffect, useState } from 'react';
import type { RoomConnection } from '../../lib/realtime/room-connection.ts';

/**
 * A piece of room state kept from a topic of the room connection: read with `load` whenever the subscription
 * to `destination` takes effect (on every (re)connect), then changed by each body on `destination`. Bodies that
 * arrive while a read is on its way are applied again on top of what it answers: the read may predate them (a
 * question deleted meanwhile must not come back).
 */
export function useRoomState<T>(
  connection: RoomConnection | null,
  destination: string,
  initial: T,
  load: () => Promise<T>,
  apply: (state: T, body: unknown) => T,
): [T, (change: (state: T) => T) => void] {
  const [state, setState] = useState<T>(initial);
  useEffect(() => {
    if (!connection) return undefined;
    let stopped = false;
    /** Bodies heard since the newest read started; null while no read is on its way. */
    let pending: unknown[] | null = null;
    let reads = 0;
    const reload = (): void => {
      const read = ++reads;
      pending = [];
      load().then(
        (value) => {
          if (stopped || read !== reads) return;
          const heard = pending ?? [];
          pending = null;
          setState(heard.reduce<T>((current, body) => apply(current, body), value));
        },
        (error: unknown) => {
          if (read === reads) pending = null;
          console.warn(`${destination} could not be loaded`, error);
        },
      );
    };
    const unwatch = connection.watch(destination, (body) => {
      pending?.push(body);
      setState((current) => apply(current, body));
    });
    const unlisten = connection.on('watching', (watched) => {
      if (watched === destination) reload();
    });
    if (connection.isWatching(destination)) reload();
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
