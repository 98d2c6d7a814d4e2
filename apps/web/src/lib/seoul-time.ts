import { SCHEDULE_TIME_ZONE } from '@sea/contract/time-zone';

// Schedules are Asia/Seoul wall-clock time, so "today" is Seoul's today wherever the viewer is.
const SEOUL_PARTS = new Intl.DateTimeFormat('en-CA', {
  timeZone: SCHEDULE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A moment's Asia/Seoul calendar date (`YYYY-MM-DD`) and time of day. */
export type SeoulMoment = { date: string; hours: number; minutes: number };

/** Where a moment falls in Asia/Seoul. */
export function seoulMoment(moment: Date): SeoulMoment {
  const parts = Object.fromEntries(SEOUL_PARTS.formatToParts(moment).map((part) => [part.type, part.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hours: Number(parts.hour),
    minutes: Number(parts.minute),
  };
}

/** The Asia/Seoul date `days` after a moment's date: `2026-11-25`, 1 → `2026-11-26`. */
export function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

/** A time of day in the app's one clock style (as `formatTimeOfDay` shows): 20:00 → '20:00', 9:30 → '09:30'. */
export function clockTime(hours: number, minutes: number): string {
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}
