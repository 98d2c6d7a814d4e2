import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { ClassItem } from '@sea/contract/classes';
import type { Executor } from '../db/database.ts';
import { categories, classes, users } from '../db/schema.ts';
import { liveStartedAt, liveViewerCount, liveWaiting } from './class-live-facts.ts';
import { nextSessionAt, replayCount } from './class-schedule-facts.ts';

/** Turns a stored image key into a URL a browser can load. */
export type ImageUrl = (key: string) => string;

/** The columns of one class item, read in a single query with its teacher and category. */
export const classItemColumns = {
  id: classes.id,
  teacherId: classes.teacherId,
  instructor: users.nickname,
  categoryId: classes.categoryId,
  category: categories.name,
  name: classes.name,
  object: classes.object,
  description: classes.description,
  instructorInfo: classes.instructorInfo,
  prerequisite: classes.prerequisite,
  announcement: classes.announcement,
  bannerImage: classes.bannerImage,
  isActive: classes.isActive,
  studentCount: classes.studentCount,
  reviewCount: classes.reviewCount,
  ratingTotal: classes.ratingTotal,
  nextSessionAt,
  replayCount,
  liveStartedAt,
  liveViewerCount,
  liveWaiting,
};

export type ClassRow = {
  id: number;
  teacherId: string;
  instructor: string;
  categoryId: number;
  category: string;
  name: string;
  object: string;
  description: string;
  instructorInfo: string | null;
  prerequisite: string | null;
  announcement: string | null;
  bannerImage: string | null;
  isActive: boolean;
  studentCount: number;
  reviewCount: number;
  ratingTotal: number;
  nextSessionAt: string | null;
  replayCount: number;
  liveStartedAt: string | null;
  liveViewerCount: number | null;
  liveWaiting: boolean;
};

/** The mean stars rounded to one decimal (4.25 → 4.3), or null without reviews. */
export function ratingAverage(ratingTotal: number, reviewCount: number): number | null {
  return reviewCount === 0 ? null : Math.round((ratingTotal / reviewCount) * 10) / 10;
}

/** The class item of the original API spec section 3 (snake_case). */
export function toClassItem(row: ClassRow, imageUrl: ImageUrl): ClassItem {
  return {
    id: row.id,
    user_id: row.teacherId,
    instructor: row.instructor,
    category_id: row.categoryId,
    category: row.category,
    name: row.name,
    object: row.object,
    description: row.description,
    instructor_info: row.instructorInfo,
    prerequisite: row.prerequisite,
    announcement: row.announcement,
    banner_image_path: row.bannerImage === null ? null : imageUrl(row.bannerImage),
    is_active: row.isActive,
    student_count: row.studentCount,
    rating_average: ratingAverage(row.ratingTotal, row.reviewCount),
    review_count: row.reviewCount,
    next_session_at: row.nextSessionAt,
    replay_count: row.replayCount,
    live_started_at: row.liveStartedAt,
    live_viewer_count: row.liveViewerCount,
    live_waiting: row.liveWaiting,
  };
}

/** `select <class item> from classes join users join categories`, ready for a where/order/limit. */
export function selectClassItems(db: Executor) {
  return db
    .select(classItemColumns)
    .from(classes)
    .innerJoin(users, eq(users.id, classes.teacherId))
    .innerJoin(categories, eq(categories.id, classes.categoryId))
    .$dynamic();
}

/** Only classes that are not deleted, plus any further conditions. */
export function notDeleted(...conditions: (SQL | undefined)[]): SQL | undefined {
  return and(isNull(classes.deletedAt), ...conditions);
}

/** One class item by id; null for an unknown or deleted class. */
export async function findClassItem(db: Executor, classId: number): Promise<ClassRow | null> {
  const [row] = await selectClassItems(db)
    .where(notDeleted(eq(classes.id, classId)))
    .limit(1);
  return row ?? null;
}
