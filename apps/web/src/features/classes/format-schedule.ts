const DATE_FORMAT = new Intl.DateTimeFormat('ko-KR', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});
const WEEKDAY_FORMAT = new Intl.DateTimeFormat('ko-KR', { weekday: 'short', timeZone: 'UTC' });

/** `2026-11-21` → '2026년 11월 21일 (토)'; a schedule date is a calendar day, not an instant, hence UTC. */
export function formatScheduleDate(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return date;
  return `${DATE_FORMAT.format(day)} (${WEEKDAY_FORMAT.format(day)})`;
}

/** `09:30:00` → '09:30'. */
export function formatScheduleTime(time: string): string {
  return time.slice(0, 5);
}

/** A time input's `HH:MM` (or `HH:MM:SS`) as the API's `HH:MM:SS`. */
export function toApiTime(value: string): string {
  return /^\d{2}:\d{2}$/.test(value) ? `${value}:00` : value;
}
