import { useEffect, useState } from 'react';
import type { RoomConnection } from '../../lib/realtime/room-connection.ts';

export type ModerationState = {
  /** The room's slow mode in seconds (0: off). */
  slowSeconds: number;
  /** Until when the reader is muted (an ISO time), or null. */
  mutedUntil: string | null;
};

/**
 * The room's slow mode and the reader's own mute, from the moderation topic: the server tells both right
 * after subscribing (on every reconnect too), then each change. A mute that ran out is dropped at its end.
 */
export function useModerationState(connection: RoomConnection | null, me: string | null): ModerationState {
  const [slowSeconds, setSlowSeconds] = useState(0);
  // Every mute heard, by user: the greeting may come before the reader's own id is known.
  const [mutes, setMutes] = useState<Readonly<Record<string, string | null>>>({});
  const [now, setNow] = useState(() => Date.now());

  useEffect(
    () =>
      connection?.on('moderated', (event) => {
        if (event.type === 'slowMode') setSlowSeconds(event.seconds);
        if (event.type === 'muted') {
          setMutes((current) => ({ ...current, [event.userId]: event.until }));
          setNow(Date.now());
        }
      }),
    [connection],
  );

  const until = me === null ? null : (mutes[me] ?? null);
  const end = until === null ? Number.NaN : Date.parse(until);
  const muted = end > now;
  // Runs again at every new `now`: a timer may fire a millisecond before the wall clock reaches `end`
  // (timers and Date.now() are different clocks), and the mute must still run out then.
  useEffect(() => {
    if (!muted) return undefined;
    const timer = setTimeout(() => setNow(Date.now()), end - Date.now());
    return () => clearTimeout(timer);
  }, [muted, end, now]);
  return { slowSeconds, mutedUntil: muted ? until : null };
}
