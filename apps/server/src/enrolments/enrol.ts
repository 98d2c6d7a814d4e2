import { and, asc, eq, sql } from 'drizzle-orm';
import type { ClassStudent } from '@sea/contract/classes';
import type { Database } from '../db/database.ts';
import { classes, enrolments, users } from '../db/schema.ts';
import { roleError } from '../errors.ts';
import type { ImageUrl } from '../classes/class-item.ts';
import { relationTo } from '../classes/class-role.ts';

/**
 * Enrols a user in a class. The unique (class, user) pair decides between concurrent requests: exactly one
 * inserts, and the class's student_count grows in the same transaction. 418 when already enrolled or the
 * user is the teacher; 404 for an unknown class.
 */
export async function enrol(db: Database, classId: number, userId: string): Promise<void> {
  const relation = await relationTo(db, classId, userId);
  if (relation === 'teacher') {
    throw roleError(
      '내가 개설한 강의는 수강 신청할 수 없어요.',
      'A teacher cannot enrol in their own class.',
    );
  }
  if (relation === 'student') throw alreadyEnrolled();
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(enrolments)
      .values({ classId, userId })
      .onConflictDoNothing({ target: [enrolments.classId, enrolments.userId] })
      .returning({ id: enrolments.id });
    if (inserted.length === 0) throw alreadyEnrolled();
    await tx
      .update(classes)
      .set({ studentCount: sql`${classes.studentCount} + 1` })
      .where(eq(classes.id, classId));
  });
}

/**
 * Ends a student's enrolment (수강 취소): the enrolment row goes and the class's student_count drops in the same
 * transaction. 418 when the user is not (or no longer) a student of the class, so a second call is a 418, and
 * for the teacher; 404 for an unknown class. The user's review of the class stays.
 */
export async function unenrol(db: Database, classId: number, userId: string): Promise<void> {
  const relation = await relationTo(db, classId, userId);
  if (relation === 'teacher') {
    throw roleError('내가 개설한 강의는 수강 취소할 수 없어요.', 'A teacher cannot cancel their own class.');
  }
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(enrolments)
      .where(and(eq(enrolments.classId, classId), eq(enrolments.userId, userId)))
      .returning({ id: enrolments.id });
    if (removed.length === 0) throw notEnrolled();
    await tx
      .update(classes)
      .set({ studentCount: sql`${classes.studentCount} - 1` })
      .where(eq(classes.id, classId));
  });
}

const notEnrolled = () => roleError('수강 중인 강의가 아니에요.', 'Not enrolled in this class.');

const alreadyEnrolled = () => roleError('이미 수강 중인 강의예요.', 'Already enrolled in this class.');

/** The students of a class, earliest enrolment first; `created_at` is the enrolment time. */
export async function listStudents(
  db: Database,
  classId: number,
  imageUrl: ImageUrl,
): Promise<ClassStudent[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      nickname: users.nickname,
      profileImage: users.profileImage,
      enrolledAt: enrolments.createdAt,
    })
    .from(enrolments)
    .innerJoin(users, eq(users.id, enrolments.userId))
    .where(eq(enrolments.classId, classId))
    .orderBy(asc(enrolments.createdAt), asc(enrolments.id));
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    nickname: row.nickname,
    profile_image_path: row.profileImage === null ? null : imageUrl(row.profileImage),
    created_at: row.enrolledAt.toISOString(),
  }));
}
