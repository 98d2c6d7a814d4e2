import { useEffect, useRef, useState } from 'react';
import type { RoomStatus } from '../room-status.ts';

/** How often the outage's count of seconds moves on. */
const TICK_MS = 1_000;

/** A room cut off from the media service after it was in: for how long, and whether it is still trying. */
export type Outage = {
  /** Whole seconds since the connection was lost. */
  seconds: number;
  /** False once recovery gave up (`failed`): nothing comes back by itself then. */
  reconnecting: boolean;
};

/**
 * Whether the room lost its media connection, from its status: an outage starts when a room that was
 * `connected` is anything else (the media service killed or restarting, the network gone), counts the
 * seconds, and ends when it is `connected` again. Nothing before the room was first entered, nor while
 * `watching` is false (the lecture ended, the entry was refused).
 */
export function useOutage(connection: RoomStatus, watching = true): Outage | null {
  const everConnected = useRef(false);
  const [since, setSince] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (connection === 'connected') everConnected.current = true;
    if (connection === 'connected' || !watching) setSince(null);
    else if (everConnected.current) setSince((current) => current ?? Date.now());
  }, [connection, watching]);

  useEffect(() => {
    if (since === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [since]);

  if (since === null) return null;
  return { seconds: Math.max(0, Math.floor((now - since) / 1_000)), reconnecting: connection !== 'failed' };
}
