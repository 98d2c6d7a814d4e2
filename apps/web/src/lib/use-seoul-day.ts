import { useSyncExternalStore } from 'react';

// Asia/Seoul keeps no daylight saving time: its midnight is always 15:00 UTC.
const SEOUL_OFFSET_MS = 9 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Milliseconds from `now` to the next midnight in Asia/Seoul. */
export function untilSeoulMidnight(now: number): number {
  const seoul = now + SEOUL_OFFSET_MS;
  return (Math.floor(seoul / DAY_MS) + 1) * DAY_MS - seoul;
}

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;
let current = new Date();
let dayEnds = current.getTime() + untilSeoulMidnight(current.getTime());

/**
 * The same moment all day (a stable snapshot), a new one once the clock is off the Seoul day it fell on: past
 * its end, or before its start (a clock set back).
 */
function snapshot(): Date {
  const now = Date.now();
  if (now >= dayEnds || now < dayEnds - DAY_MS) {
    current = new Date(now);
    dayEnds = now + untilSeoulMidnight(now);
  }
  return current;
}

function arm(): void {
  // A little past midnight, so that the moment read then is surely on the new day.
  timer = setTimeout(
    () => {
      for (const listener of listeners) listener();
      arm();
    },
    untilSeoulMidnight(Date.now()) + 1_000,
  );
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) arm();
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearTimeout(timer);
  };
}

/**
 * A moment of the current Asia/Seoul day, renewed just after each Seoul midnight: a component that says '오늘'
 * or '내일' renders again when the day turns, not only when its data reloads. One timer for every user.
 */
export function useSeoulDay(): Date {
  return useSyncExternalStore(subscribe, snapshot);
}
