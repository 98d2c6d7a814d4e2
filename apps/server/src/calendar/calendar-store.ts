import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { calendarFeeds, users } from '../db/schema.ts';
import { CalendarFeeds } from './calendar-feeds.ts';

/** The user's feed selector, made on first request (two first requests at once agree on one). */
export async function feedSelector(db: Executor, userId: string): Promise<string> {
  await db
    .insert(calendarFeeds)
    .values({ userId, selector: CalendarFeeds.newSelector() })
    .onConflictDoNothing({ target: calendarFeeds.userId });
  const [row] = await db
    .select({ selector: calendarFeeds.selector })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId));
  if (row === undefined) throw new Error('calendar feed row vanished');
  return row.selector;
}

/** A new selector for the user's feed: the old URL stops working at once. */
export async function resetSelector(db: Executor, userId: string): Promise<string> {
  const selector = CalendarFeeds.newSelector();
  await db
    .insert(calendarFeeds)
    .values({ userId, selector })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { selector, createdAt: new Date() } });
  return selector;
}

/** The user whose feed has this selector, while they have not withdrawn; null otherwise. */
export async function feedOwner(db: Executor, selector: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: calendarFeeds.userId })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(and(eq(calendarFeeds.selector, selector), isNull(users.deletedAt)));
  return row?.userId ?? null;
}
