import { z } from 'zod';

/**
 * `data` of `GET /api/users/calendar-url` and of its reset: the caller's private calendar feed (iCalendar),
 * whose secret token is in the URL itself; calendar apps subscribe to it without logging in.
 */
export const CalendarUrlSchema = z.object({
  url: z.url(),
  /** The same feed as `webcal://`, which calendar apps open as a subscription. */
  webcal_url: z.string(),
});
export type CalendarUrl = z.infer<typeof CalendarUrlSchema>;

/** Path parameters of the feed: the secret token (base64url). */
export const CalendarTokenParamsSchema = z.object({
  token: z.string().min(1).max(200),
});

/** The iCalendar media type the feeds are sent as. */
export const ICALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8';

/** A class's schedule file's name. */
export function classScheduleIcsName(classId: number): string {
  return `class-${classId}.ics`;
}
