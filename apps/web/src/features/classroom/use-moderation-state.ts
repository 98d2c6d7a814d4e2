import { useEffect, useState } from 'react';
import type { RoomConnection } from '../../lib/realtime/room-connection.ts';

export type ModerationState = {
  /** The room's slow mode in seconds (0: off). */
  slowSeconds: number;
  /** Until when the reader is muted (an ISO time), or null. */
  mutedUntil: string | null;
  /** Every mute still running, by user id (the teacher's list of muted students). */
  mutes: Readonly<Record<string, string>>;
  /** The clock the mutes were last checked against (ms), ticking each second while one runs. */
  now: number;
};

/**
 * The room's slow mode and the reader's own mute, from the moderation topic: the server tells both right
 * after subscribing (on every reconnect too), then each change. A mute that ran out is dropped at its end;
 * the clock ticks each second while one runs, for the countdowns.
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

  const running: Record<string, string> = {};
  for (const [userId, until] of Object.entries(mutes)) {
    if (until !== null && Date.parse(until) > now) running[userId] = until;
  }
  const until = me === null ? null : (running[me] ?? null);
  const anyRunning = Object.keys(running).length > 0;
  // Ticks each second while a mute runs (the countdowns), and again at every new `now`: a timer may fire a
  // millisecond before the wall clock reaches a mute's end (timers and Date.now() are different clocks),
  // and the mute must still run out then.
  useEffect(() => {
    if (!anyRunning) return undefined;
    const timer = setTimeout(() => setNow(Date.now()), 1000 - (Date.now() % 1000) + 1);
    return () => clearTimeout(timer);
  }, [anyRunning, now]);
  return { slowSeconds, mutedUntil: until, mutes: running, now };
}
