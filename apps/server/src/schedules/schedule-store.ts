import { and, asc, eq, gt, gte, sql } from 'drizzle-orm';
import {
  SCHEDULE_TIME_ZONE,
  UPCOMING_SCHEDULE_SIZE,
  type Schedule,
  type ScheduleCreateSchema,
} from '@sea/contract/schedules';
import type { z } from 'zod';
import type { Database } from '../db/database.ts';
import { notDeleted } from '../classes/class-item.ts';
import { classes, schedules } from '../db/schema.ts';
import { notFound } from '../errors.ts';

const columns = {
  id: schedules.id,
  class_id: schedules.classId,
  content: schedules.content,
  date: schedules.date,
  start_time: schedules.startTime,
  end_time: schedules.endTime,
};

/** A class's schedule, ordered by date and start time. */
export async function listSchedules(db: Database, classId: number): Promise<Schedule[]> {
  return db
    .select(columns)
    .from(schedules)
    .where(eq(schedules.classId, classId))
    .orderBy(asc(schedules.date), asc(schedules.startTime), asc(schedules.id));
}

/**
 * The class's next entries that have not ended (an entry under way included), soonest first, at most
 * UPCOMING_SCHEDULE_SIZE; dates and times are Asia/Seoul wall-clock time, compared with the database's clock.
 * 404 for an unknown or deleted class.
 */
export async function listUpcomingSchedules(db: Database, classId: number): Promise<Schedule[]> {
  const seoulToday = sql`(now() at time zone ${SCHEDULE_TIME_ZONE})::date`;
  const ends = sql`((${schedules.date} + ${schedules.endTime}) at time zone ${SCHEDULE_TIME_ZONE})`;
  const [found, upcoming] = await Promise.all([
    db
      .select({ id: classes.id })
      .from(classes)
      .where(notDeleted(eq(classes.id, classId))),
    db
      .select(columns)
      .from(schedules)
      .where(and(eq(schedules.classId, classId), gte(schedules.date, seoulToday), gt(ends, sql`now()`)))
      .orderBy(asc(schedules.date), asc(schedules.startTime), asc(schedules.id))
      .limit(UPCOMING_SCHEDULE_SIZE),
  ]);
  if (found.length === 0) throw notFound('class');
  return upcoming;
}

export async function addSchedule(
  db: Database,
  classId: number,
  input: z.output<typeof ScheduleCreateSchema>,
): Promise<Schedule> {
  const [created] = await db
    .insert(schedules)
    .values({
      classId,
      content: input.content,
      date: input.date,
      startTime: input.start_time,
      endTime: input.end_time,
    })
    .returning(columns);
  if (created === undefined) throw new Error('schedule insert returned nothing');
  return created;
}

/** Removes one schedule entry of this class; 404 when no such entry belongs to it. */
export async function removeSchedule(db: Database, classId: number, scheduleId: number): Promise<void> {
  const removed = await db
    .delete(schedules)
    .where(and(eq(schedules.id, scheduleId), eq(schedules.classId, classId)))
    .returning({ id: schedules.id });
  if (removed.length === 0) throw notFound('schedule');
}
