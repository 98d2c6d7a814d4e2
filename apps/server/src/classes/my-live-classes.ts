import { eq, inArray, or } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { classes, enrolments } from '../db/schema.ts';
import { notDeleted } from './class-item.ts';

/** A live class of the user and the user's relation to it. */
export type MyLiveClassRow = { id: number; relation: 'teacher' | 'student' };

/**
 * The user's classes that are live now, newest first: those the user teaches and those the user is enrolled
 * in (the membership rule of `relationsTo`), in one query.
 */
export async function listMyLiveClasses(db: Executor, userId: string): Promise<MyLiveClassRow[]> {
  const enrolled = db
    .select({ classId: enrolments.classId })
    .from(enrolments)
    .where(eq(enrolments.userId, userId));
  const rows = await db
    .select({ id: classes.id, teacherId: classes.teacherId })
    .from(classes)
    .where(
      notDeleted(
        eq(classes.isActive, true),
        or(eq(classes.teacherId, userId), inArray(classes.id, enrolled)),
      ),
    )
    .orderBy(classes.id);
  return rows.map((row) => ({
    id: row.id,
    relation: row.teacherId === userId ? 'teacher' : 'student',
  }));
}
