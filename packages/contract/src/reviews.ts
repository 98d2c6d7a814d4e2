import { z } from 'zod';
import { CLASS_ROLES } from './classes.ts';
import { idText } from './ids.ts';
import { requiredText } from './text.ts';

/** Reviews per page of `GET /api/classes/{id}/reviews`. */
export const REVIEW_PAGE_SIZE = 10;

/** Stars of a review, and the length of its text and of the teacher's reply, in characters. */
export const REVIEW_RATING_MIN = 1;
export const REVIEW_RATING_MAX = 5;
export const REVIEW_CONTENT_MIN = 10;
export const REVIEW_CONTENT_MAX = 1000;
export const REVIEW_REPLY_MAX = 1000;

/** Validation messages of the review forms, shared by the forms and the server. */
export const REVIEW_MESSAGES = {
  ratingRequired: '별점을 1점에서 5점 사이로 골라 주세요.',
  contentRequired: '수강평을 입력해 주세요.',
  contentLength: `수강평은 ${REVIEW_CONTENT_MIN}자 이상 ${REVIEW_CONTENT_MAX}자 이하로 입력해 주세요.`,
  replyRequired: '답글을 입력해 주세요.',
  replyLength: `답글은 ${REVIEW_REPLY_MAX}자 이하로 입력해 주세요.`,
} as const;

const rating = z
  .number({ error: REVIEW_MESSAGES.ratingRequired })
  .int(REVIEW_MESSAGES.ratingRequired)
  .min(REVIEW_RATING_MIN, REVIEW_MESSAGES.ratingRequired)
  .max(REVIEW_RATING_MAX, REVIEW_MESSAGES.ratingRequired);

const content = requiredText(REVIEW_MESSAGES.contentRequired, {
  min: REVIEW_CONTENT_MIN,
  max: REVIEW_CONTENT_MAX,
  lengthMessage: REVIEW_MESSAGES.contentLength,
});

/** Body of `POST /api/classes/{id}/reviews`. */
export const ReviewCreateSchema = z.object({ rating, content });
export type ReviewCreate = z.input<typeof ReviewCreateSchema>;

/** Body of `PATCH /api/classes/{id}/reviews/{reviewId}`: an absent field is kept; at least one is given. */
export const ReviewUpdateSchema = z
  .object({ rating: rating.optional(), content: content.optional() })
  .refine((update) => update.rating !== undefined || update.content !== undefined, {
    error: '바꿀 별점이나 수강평을 보내 주세요.',
  });
export type ReviewUpdate = z.input<typeof ReviewUpdateSchema>;

/** Body of `POST /api/classes/{id}/reviews/{reviewId}/reply`. */
export const ReviewReplySchema = z.object({
  content: requiredText(REVIEW_MESSAGES.replyRequired, {
    max: REVIEW_REPLY_MAX,
    lengthMessage: REVIEW_MESSAGES.replyLength,
  }),
});
export type ReviewReply = z.input<typeof ReviewReplySchema>;

/** Path parameters of `/api/classes/{classId}/reviews/{reviewId}...`. */
export const ReviewParamsSchema = z.object({
  classId: idText('강의 번호가 올바르지 않아요.'),
  reviewId: idText('수강평 번호가 올바르지 않아요.'),
});

/** Query of `GET /api/classes/{id}/reviews`: pages from 0, newest first. */
export const ReviewListQuerySchema = z.object({ page: z.coerce.number().int().min(0).default(0) });

/** One review as every response shows it; `reply` is the teacher's answer, or null. */
export const ReviewItemSchema = z.object({
  id: z.number().int(),
  class_id: z.number().int(),
  user_id: z.string(),
  nickname: z.string(),
  profile_image_path: z.string().nullable(),
  rating: z.number().int(),
  content: z.string(),
  reply: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ReviewItem = z.infer<typeof ReviewItemSchema>;

/**
 * `GET /api/classes/{id}/reviews/summary`: the mean stars (null without reviews), the count, how many reviews
 * gave each number of stars (`distribution[0]` is 1 star ... `distribution[4]` 5 stars), the caller's own
 * review id (null without a token or a review) and the caller's role in the class (관계없음 without a token):
 * a 수강생 without a review may write one, the 강사 replies.
 */
export const ReviewSummarySchema = z.object({
  rating_average: z.number().nullable(),
  review_count: z.number().int(),
  distribution: z.array(z.number().int()).length(REVIEW_RATING_MAX),
  my_review_id: z.number().int().nullable(),
  my_role: z.enum([CLASS_ROLES.teacher, CLASS_ROLES.student, CLASS_ROLES.none]),
});
export type ReviewSummary = z.infer<typeof ReviewSummarySchema>;
