import type { Schedule } from '@sea/contract/schedules';
import { addDays, clockTime, seoulMoment } from '../../lib/seoul-time.ts';
import { formatScheduleDate } from './format-schedule.ts';

/** An entry's day and time as the class page shows them. */
export type UpcomingWhen = {
  /** '오늘', '내일', or the date with its weekday: '2026년 11월 27일 (금)'. */
  day: string;
  /** '20:00 ~ 21:30', in the clock style of every page. */
  time: string;
  /** The day is today in Asia/Seoul. */
  today: boolean;
};

/** `HH:MM:SS` → hours and minutes. */
function clock(time: string): { hours: number; minutes: number } {
  return { hours: Number(time.slice(0, 2)), minutes: Number(time.slice(3, 5)) };
}

/**
 * When an upcoming entry takes place, in Korean. Schedule dates and times are Asia/Seoul wall-clock time
 * already, so only "today" needs the clock: `now`'s date in Seoul.
 */
export function upcomingWhen(
  entry: Pick<Schedule, 'date' | 'start_time' | 'end_time'>,
  now: Date,
): UpcomingWhen {
  const today = seoulMoment(now).date;
  const day =
    entry.date === today
      ? '오늘'
      : entry.date === addDays(today, 1)
        ? '내일'
        : formatScheduleDate(entry.date);
  const start = clock(entry.start_time);
  const end = clock(entry.end_time);
  return {
    day,
    time: `${clockTime(start.hours, start.minutes)} ~ ${clockTime(end.hours, end.minutes)}`,
    today: entry.date === today,
  };
}
