import { and, eq, inArray } from 'drizzle-orm';
import { CLASS_ROLES, type ClassRole } from '@sea/contract/classes';
import type { Executor } from '../db/database.ts';
import { classes, enrolments } from '../db/schema.ts';
import { notFound, roleError } from '../errors.ts';
import { notDeleted } from './class-item.ts';

/** A user's relation to a class. */
export type Relation = 'teacher' | 'student' | 'none';

/** The Korean role names `GET /api/classes/{id}/role` answers. */
export const ROLE_NAMES: Record<Relation, ClassRole> = {
  teacher: CLASS_ROLES.teacher,
  student: CLASS_ROLES.student,
  none: CLASS_ROLES.none,
};

/**
 * The rule of membership, written once: a class's members are its teacher and the students enrolled in it,
 * while the class is not deleted. One query; null for an unknown or deleted class. With `userIds`, only those
 * of the students are read.
 */
export async function membersOf(
  db: Executor,
  classId: number,
  userIds?: readonly string[],
): Promise<{ teacherId: string; studentIds: string[] } | null> {
  // One row per student (or one with none): the class's row is there either way.
  const among = userIds === undefined ? undefined : inArray(enrolments.userId, [...userIds]);
  const rows = await db
    .select({ teacherId: classes.teacherId, studentId: enrolments.userId })
    .from(classes)
    .leftJoin(enrolments, and(eq(enrolments.classId, classes.id), among))
    .where(notDeleted(eq(classes.id, classId)));
  const teacherId = rows[0]?.teacherId;
  if (teacherId === undefined) return null;
  return { teacherId, studentIds: rows.flatMap((row) => (row.studentId === null ? [] : [row.studentId])) };
}

/** The relations of several users to one class, in one query ({@link membersOf}); null as it answers. */
export async function relationsTo(
  db: Executor,
  classId: number,
  userIds: readonly string[],
): Promise<Map<string, Relation> | null> {
  const members = await membersOf(db, classId, userIds);
  if (members === null) return null;
  const { teacherId } = members;
  const students = new Set(members.studentIds);
  return new Map(
    userIds.map((userId) => [
      userId,
      userId === teacherId ? 'teacher' : students.has(userId) ? 'student' : 'none',
    ]),
  );
}

/** The user's relation to a class, in one query; 404 for an unknown or deleted class. */
export async function relationTo(db: Executor, classId: number, userId: string): Promise<Relation> {
  const relation = (await relationsTo(db, classId, [userId]))?.get(userId);
  if (relation === undefined) throw notFound('class');
  return relation;
}

/** 418 unless the user is the class's teacher. */
export async function requireTeacher(db: Executor, classId: number, userId: string): Promise<void> {
  if ((await relationTo(db, classId, userId)) !== 'teacher') {
    throw roleError('강의를 개설한 강사만 할 수 있어요.', 'Only the teacher of this class can do this.');
  }
}

/** 418 unless the user is the class's teacher or an enrolled student; answers which. */
export async function requireMember(
  db: Executor,
  classId: number,
  userId: string,
): Promise<'teacher' | 'student'> {
  const relation = await relationTo(db, classId, userId);
  if (relation === 'none') {
    throw roleError(
      '이 강의의 강사와 수강생만 이용할 수 있어요.',
      'Only the teacher and the students of this class can do this.',
    );
  }
  return relation;
}
