import { and, desc, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { notDeleted } from '../classes/class-item.ts';
import { classes, enrolments, schedules } from '../db/schema.ts';

/** Most schedule entries one feed holds (the newest): years of daily lectures in every class stay under it. */
export const MAX_CALENDAR_ENTRIES = 5_000;

/** A schedule entry as a calendar shows it: Asia/Seoul wall-clock date and times, and its class. */
export type CalendarEntry = {
  id: number;
  classId: number;
  className: string;
  content: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** `HH:MM:SS`. */
  startTime: string;
  endTime: string;
};

async function entriesWhere(db: Executor, which: SQL | undefined): Promise<CalendarEntry[]> {
  return db
    .select({
      id: schedules.id,
      classId: schedules.classId,
      className: classes.name,
      content: schedules.content,
      date: schedules.date,
      startTime: schedules.startTime,
      endTime: schedules.endTime,
    })
    .from(schedules)
    .innerJoin(classes, eq(classes.id, schedules.classId))
    .where(notDeleted(which))
    .orderBy(desc(schedules.date), desc(schedules.startTime), desc(schedules.id))
    .limit(MAX_CALENDAR_ENTRIES);
}

/**
 * The schedule entries of every class the user teaches or studies now (not deleted): read afresh on every
 * request, so a changed schedule or a class left shows at the calendar's next refresh.
 */
export async function entriesOfUser(db: Executor, userId: string): Promise<CalendarEntry[]> {
  const studied = db
    .select({ classId: enrolments.classId })
    .from(enrolments)
    .where(eq(enrolments.userId, userId));
  return entriesWhere(db, or(eq(classes.teacherId, userId), inArray(classes.id, studied)));
}

/** One class's schedule entries. */
export async function entriesOfClass(db: Executor, classId: number): Promise<CalendarEntry[]> {
  return entriesWhere(db, and(eq(classes.id, classId)));
}
