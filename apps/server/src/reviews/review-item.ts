import { eq } from 'drizzle-orm';
import type { ReviewItem } from '@sea/contract/reviews';
import type { Executor } from '../db/database.ts';
import { reviews, users } from '../db/schema.ts';
import type { ImageUrl } from '../classes/class-item.ts';

/** The columns of one review item, read with its author. */
const reviewItemColumns = {
  id: reviews.id,
  classId: reviews.classId,
  userId: reviews.userId,
  nickname: users.nickname,
  profileImage: users.profileImage,
  rating: reviews.rating,
  content: reviews.content,
  reply: reviews.reply,
  createdAt: reviews.createdAt,
  updatedAt: reviews.updatedAt,
};

export type ReviewRow = {
  id: number;
  classId: number;
  userId: string;
  nickname: string;
  profileImage: string | null;
  rating: number;
  content: string;
  reply: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/** `select <review item> from reviews join users`, ready for a where/order/limit. */
export function selectReviewItems(db: Executor) {
  return db.select(reviewItemColumns).from(reviews).innerJoin(users, eq(users.id, reviews.userId)).$dynamic();
}

/** The review item of the API (snake_case). */
export function toReviewItem(row: ReviewRow, imageUrl: ImageUrl): ReviewItem {
  return {
    id: row.id,
    class_id: row.classId,
    user_id: row.userId,
    nickname: row.nickname,
    profile_image_path: row.profileImage === null ? null : imageUrl(row.profileImage),
    rating: row.rating,
    content: row.content,
    reply: row.reply,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
