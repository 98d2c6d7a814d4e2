import { TZDate } from '@date-fns/tz';
import { ICalCalendar } from 'ical-generator';
import { PAGES, toPath } from '@sea/contract/paths';
import { SCHEDULE_TIME_ZONE } from '@sea/contract/time-zone';
import type { CalendarEntry } from './calendar-entries.ts';

/** How often calendar apps are asked to fetch the feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
const REFRESH_S = 3600;

/**
 * Asia/Seoul's VTIMEZONE: Korea has kept +09:00 without daylight saving since 1988, so one STANDARD rule
 * describes every date a schedule can have (the form the common VTIMEZONE collections give it).
 */
const SEOUL_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Asia/Seoul',
  'BEGIN:STANDARD',
  'DTSTART:19700101T000000',
  'TZOFFSETFROM:+0900',
  'TZOFFSETTO:+0900',
  'TZNAME:KST',
  'END:STANDARD',
  'END:VTIMEZONE',
].join('\r\n');

/** The instant of a schedule's wall-clock date and time in Asia/Seoul. */
function seoulTime(date: string, time: string): TZDate {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const [hours = 0, minutes = 0, seconds = 0] = time.split(':').map(Number);
  return new TZDate(year, month - 1, day, hours, minutes, seconds, SCHEDULE_TIME_ZONE);
}

/**
 * Schedule entries as an iCalendar file (RFC 5545) made with ical-generator: one VEVENT per entry (entries are
 * single dates, so no RRULE), with DTSTART and DTEND in Asia/Seoul (TZID and the VTIMEZONE above), the class's
 * name and the entry as SUMMARY, and the class page as URL. UIDs stay the same from one fetch to the next, so
 * a calendar app updates an entry in place and drops one that is gone.
 */
export function scheduleIcs(name: string, entries: readonly CalendarEntry[], publicUrl: string): string {
  const host = new URL(publicUrl).hostname;
  const calendar = new ICalCalendar({
    name,
    prodId: { company: 'Sea Academy', product: 'Badahakwon', language: 'KO' },
    // No calendar-wide zone (ical-generator would then write DTSTAMP in it, where RFC 5545 wants UTC): the
    // events name theirs, and the generator writes its VTIMEZONE.
    timezone: { name: null, generator: (zone) => (zone === SCHEDULE_TIME_ZONE ? SEOUL_VTIMEZONE : null) },
    ttl: REFRESH_S,
    // Google Calendar reads the calendar's own zone from here.
    x: { 'X-WR-TIMEZONE': SCHEDULE_TIME_ZONE },
  });
  for (const entry of entries) {
    calendar.createEvent({
      id: `schedule-${entry.id}@${host}`,
      start: seoulTime(entry.date, entry.startTime),
      end: seoulTime(entry.date, entry.endTime),
      timezone: SCHEDULE_TIME_ZONE,
      summary: `[${entry.className}] ${entry.content}`,
      url: publicUrl + toPath(PAGES.lectureInfo, { classId: entry.classId }),
    });
  }
  return calendar.toString();
}
