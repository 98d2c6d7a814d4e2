import { formatDateTime } from './format-date-time.ts';

/**
 * The name a live session (and its replay) is shown by on every page: the teacher's title, else its start
 * ('2026년 11월 25일 (수) 19:00').
 */
export function sessionTitle(title: string | null | undefined, startedAt: string): string {
  return title?.trim() || formatDateTime(startedAt);
}
