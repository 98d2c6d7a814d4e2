import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { REVIEW_PAGE_SIZE, REVIEW_RATING_MAX, type ReviewSummary } from '@sea/contract/reviews';
import type { Database, Executor } from '../db/database.ts';
import { classes, reviews } from '../db/schema.ts';
import { conflict, notFound, roleError } from '../errors.ts';
import { notDeleted, ratingAverage } from '../classes/class-item.ts';
import { relationTo, ROLE_NAMES } from '../classes/class-role.ts';
import { selectReviewItems, type ReviewRow } from './review-item.ts';

type ReviewText = { rating: number; content: string };

const alreadyReviewed = () =>
  conflict('이미 이 강의에 수강평을 남겼어요. 남긴 수강평을 수정해 주세요.', 'Already reviewed this class.');

/** Adds to (or, with negative numbers, takes from) a class's review count and star total. */
async function changeTotals(tx: Executor, classId: number, count: number, stars: number): Promise<void> {
  await tx
    .update(classes)
    .set({
      reviewCount: sql`${classes.reviewCount} + ${count}`,
      ratingTotal: sql`${classes.ratingTotal} + ${stars}`,
    })
    .where(eq(classes.id, classId));
}

/**
 * A student's review. 418 for the class's teacher and for anyone not enrolled, 409 when the user already
 * reviewed the class (the unique (class, user) pair decides between concurrent requests), 404 for an unknown
 * class. The class's totals change in the same transaction.
 */
export async function createReview(
  db: Database,
  classId: number,
  userId: string,
  review: ReviewText,
): Promise<number> {
  const relation = await relationTo(db, classId, userId);
  if (relation === 'teacher') {
    throw roleError(
      '내가 개설한 강의에는 수강평을 남길 수 없어요.',
      'A teacher cannot review their own class.',
    );
  }
  if (relation !== 'student') {
    throw roleError(
      '수강 중인 강의에만 수강평을 남길 수 있어요.',
      'Only students of the class can review it.',
    );
  }
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(reviews)
      .values({ classId, userId, ...review })
      .onConflictDoNothing({ target: [reviews.classId, reviews.userId] })
      .returning({ id: reviews.id });
    if (inserted === undefined) throw alreadyReviewed();
    await changeTotals(tx, classId, 1, review.rating);
    return inserted.id;
  });
}

/** The review, locked for the rest of the transaction; 404 unless it belongs to this (not deleted) class. */
async function lockReview(tx: Executor, classId: number, reviewId: number) {
  const [row] = await tx
    .select({ userId: reviews.userId, rating: reviews.rating, reply: reviews.reply })
    .from(reviews)
    .innerJoin(classes, eq(classes.id, reviews.classId))
    .where(and(eq(reviews.id, reviewId), eq(reviews.classId, classId), isNull(classes.deletedAt)))
    .for('update', { of: reviews });
  if (row === undefined) throw notFound('review');
  return row;
}

const notAuthor = () =>
  roleError('내가 남긴 수강평만 고치거나 지울 수 있어요.', 'Only the author can change this review.');

/** The author edits the stars and/or the text; the class's star total follows. 418 for anyone else. */
export async function updateReview(
  db: Database,
  classId: number,
  reviewId: number,
  userId: string,
  update: Partial<ReviewText>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const review = await lockReview(tx, classId, reviewId);
    if (review.userId !== userId) throw notAuthor();
    await tx
      .update(reviews)
      .set({ ...update, updatedAt: new Date() })
      .where(eq(reviews.id, reviewId));
    if (update.rating !== undefined) await changeTotals(tx, classId, 0, update.rating - review.rating);
  });
}

/** The author deletes the review; the class's totals drop. 418 for anyone else. */
export async function deleteReview(db: Database, classId: number, reviewId: number, userId: string) {
  await db.transaction(async (tx) => {
    const review = await lockReview(tx, classId, reviewId);
    if (review.userId !== userId) throw notAuthor();
    await tx.delete(reviews).where(eq(reviews.id, reviewId));
    await changeTotals(tx, classId, -1, -review.rating);
  });
}

/** The class's teacher replies once; 418 for anyone else, 409 for a second reply. Answers the review's author. */
export async function replyToReview(
  db: Database,
  classId: number,
  reviewId: number,
  userId: string,
  content: string,
): Promise<string> {
  const relation = await relationTo(db, classId, userId);
  if (relation !== 'teacher') {
    throw roleError('강의를 개설한 강사만 답글을 달 수 있어요.', 'Only the teacher can reply to a review.');
  }
  return db.transaction(async (tx) => {
    const review = await lockReview(tx, classId, reviewId);
    if (review.reply !== null) {
      throw conflict('이미 답글을 단 수강평이에요.', 'This review already has a reply.');
    }
    await tx.update(reviews).set({ reply: content, repliedAt: new Date() }).where(eq(reviews.id, reviewId));
    return review.userId;
  });
}

/** One review with its author; null when it is gone. */
export async function findReview(db: Executor, reviewId: number): Promise<ReviewRow | null> {
  const [row] = await selectReviewItems(db).where(eq(reviews.id, reviewId)).limit(1);
  return row ?? null;
}

/** 404 unless the class exists and is not deleted. */
export async function requireClass(db: Executor, classId: number): Promise<void> {
  const [row] = await db
    .select({ id: classes.id })
    .from(classes)
    .where(notDeleted(eq(classes.id, classId)))
    .limit(1);
  if (row === undefined) throw notFound('class');
}

/** One page of a class's reviews, newest first (the id breaks ties). */
export async function listReviews(db: Database, classId: number, page: number): Promise<ReviewRow[]> {
  await requireClass(db, classId);
  return selectReviewItems(db)
    .where(eq(reviews.classId, classId))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(REVIEW_PAGE_SIZE)
    .offset(page * REVIEW_PAGE_SIZE);
}

/** The class's mean, count and distribution of stars, and the caller's own review. */
export async function reviewSummary(
  db: Database,
  classId: number,
  userId: string | null,
): Promise<ReviewSummary> {
  const [totals] = await db
    .select({ count: classes.reviewCount, total: classes.ratingTotal })
    .from(classes)
    .where(notDeleted(eq(classes.id, classId)));
  if (totals === undefined) throw notFound('class');
  const counts = await db
    .select({ rating: reviews.rating, n: sql<number>`count(*)::int` })
    .from(reviews)
    .where(eq(reviews.classId, classId))
    .groupBy(reviews.rating);
  const distribution = Array.from({ length: REVIEW_RATING_MAX }, (_, index) => {
    return counts.find((row) => row.rating === index + 1)?.n ?? 0;
  });
  const [mine] =
    userId === null
      ? []
      : await db
          .select({ id: reviews.id })
          .from(reviews)
          .where(and(eq(reviews.classId, classId), eq(reviews.userId, userId)));
  const relation = userId === null ? 'none' : await relationTo(db, classId, userId);
  return {
    rating_average: ratingAverage(totals.total, totals.count),
    review_count: totals.count,
    distribution,
    my_review_id: mine?.id ?? null,
    my_role: ROLE_NAMES[relation],
  };
}
