import { clockTime, seoulMoment } from '../../lib/seoul-time.ts';

/**
 * A card's line for a class whose next session is today in Asia/Seoul: '오늘 20:00 라이브'. Null when the
 * next session is on another day, or there is none, or the time is unreadable: a card speaks only of today.
 * `nextSessionAt` is the class item's `next_session_at` (an entry under way counts until it ends).
 */
export function todayLiveLine(nextSessionAt: string | null, now: Date): string | null {
  if (nextSessionAt === null) return null;
  const start = new Date(nextSessionAt);
  if (Number.isNaN(start.getTime())) return null;
  const session = seoulMoment(start);
  if (session.date !== seoulMoment(now).date) return null;
  return `오늘 ${clockTime(session.hours, session.minutes)} 라이브`;
}
