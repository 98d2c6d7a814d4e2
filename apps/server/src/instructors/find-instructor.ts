import { and, desc, eq, isNull } from 'drizzle-orm';
import { INSTRUCTOR_CLASSES_MAX, type Instructor } from '@sea/contract/instructors';
import type { Database } from '../db/database.ts';
import { classes, users } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import {
  notDeleted,
  ratingAverage,
  selectClassItems,
  toClassItem,
  type ImageUrl,
} from '../classes/class-item.ts';

/**
 * A registered (not withdrawn) user's instructor page: profile, introduction, their classes newest first and
 * the totals over those classes (read from the classes' own exact counters). 404 for an unknown user.
 */
export async function findInstructor(db: Database, userId: string, imageUrl: ImageUrl): Promise<Instructor> {
  const [user] = await db
    .select({ id: users.id, nickname: users.nickname, image: users.profileImage, intro: users.introduction })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (user === undefined) throw notFound('user');
  const rows = await selectClassItems(db)
    .where(notDeleted(eq(classes.teacherId, userId)))
    .orderBy(desc(classes.createdAt), desc(classes.id))
    .limit(INSTRUCTOR_CLASSES_MAX);
  const students = rows.reduce((sum, row) => sum + row.studentCount, 0);
  const reviews = rows.reduce((sum, row) => sum + row.reviewCount, 0);
  const stars = rows.reduce((sum, row) => sum + row.ratingTotal, 0);
  return {
    id: user.id,
    nickname: user.nickname,
    profile_image_path: user.image === null ? null : imageUrl(user.image),
    introduction: user.intro,
    student_count: students,
    rating_average: ratingAverage(stars, reviews),
    review_count: reviews,
    classes: rows.map((row) => toClassItem(row, imageUrl)),
  };
}
