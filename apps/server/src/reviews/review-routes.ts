import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import {
  ReviewCreateSchema,
  ReviewItemSchema,
  ReviewListQuerySchema,
  ReviewParamsSchema,
  ReviewReplySchema,
  ReviewSummarySchema,
  ReviewUpdateSchema,
} from '@sea/contract/reviews';
import { DoneSchema, done, envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { notFound } from '../errors.ts';
import { requireUser } from '../plugins/auth.ts';
import { writeLimit } from '../plugins/rate-limit.ts';
import { toReviewItem } from './review-item.ts';
import {
  createReview,
  deleteReview,
  findReview,
  listReviews,
  replyToReview,
  reviewSummary,
  updateReview,
} from './review-store.ts';

const tags = ['reviews'];
const security = [{ bearer: [] }];

/** Reviews (수강평) of a class: list and summary for everyone, writes for the student, reply for the teacher. */
export async function reviewRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const imageUrl = (key: string) => app.storage.url(key);
  const answerReview = async (reviewId: number) => {
    const row = await findReview(app.db, reviewId);
    if (row === null) throw notFound('review');
    return toReviewItem(row, imageUrl);
  };

  app.get(
    ROUTES.reviews,
    {
      schema: {
        tags,
        summary: 'A page of 10 reviews of a class, newest first',
        description: '`page` from 0; past the end a page is `[]`. 404 for an unknown or deleted class.',
        params: ClassIdParamsSchema,
        querystring: ReviewListQuerySchema,
        response: { 200: envelopeSchema(z.array(ReviewItemSchema)), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const rows = await listReviews(app.db, request.params.classId, request.query.page);
      return ok(
        rows.map((row) => toReviewItem(row, imageUrl)),
        '수강평 목록이에요.',
        'Reviews.',
      );
    },
  );

  app.get(
    ROUTES.reviewSummary,
    {
      onRequest: app.identify,
      schema: {
        tags,
        summary:
          'The mean, count and distribution of a class’s stars (and the caller’s review, with a bearer)',
        params: ClassIdParamsSchema,
        response: { 200: envelopeSchema(ReviewSummarySchema), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const summary = await reviewSummary(app.db, request.params.classId, request.auth?.accountId ?? null);
      return ok(summary, '수강평 요약이에요.', 'Review summary.');
    },
  );

  app.post(
    ROUTES.reviews,
    {
      onRequest: app.authenticate,
      config: writeLimit(app, 'review'),
      schema: {
        tags,
        security,
        summary: 'Review a class (enrolled student; one each)',
        description:
          '`rating` an integer 1-5, `content` 10-1000 characters after trimming. 418 for the class’s teacher ' +
          'and for anyone not enrolled; 409 for a second review by the same student.',
        params: ClassIdParamsSchema,
        body: ReviewCreateSchema,
        response: { 200: envelopeSchema(ReviewItemSchema), ...errorResponses(400, 401, 404, 409, 418, 429) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const reviewId = await createReview(app.db, request.params.classId, user.id, request.body);
      return ok(await answerReview(reviewId), '수강평을 남겼어요.', 'Review posted.');
    },
  );

  app.patch(
    ROUTES.review,
    {
      onRequest: app.authenticate,
      config: writeLimit(app, 'review'),
      schema: {
        tags,
        security,
        summary: 'Edit a review (its author): rating and/or content',
        params: ReviewParamsSchema,
        body: ReviewUpdateSchema,
        response: { 200: envelopeSchema(ReviewItemSchema), ...errorResponses(400, 401, 404, 418, 429) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, reviewId } = request.params;
      await updateReview(app.db, classId, reviewId, user.id, request.body);
      return ok(await answerReview(reviewId), '수강평을 수정했어요.', 'Review updated.');
    },
  );

  app.delete(
    ROUTES.review,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Delete a review (its author)',
        params: ReviewParamsSchema,
        response: { 200: DoneSchema, ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, reviewId } = request.params;
      await deleteReview(app.db, classId, reviewId, user.id);
      return done('수강평을 삭제했어요.', 'Review deleted.');
    },
  );

  app.post(
    ROUTES.reviewReply,
    {
      onRequest: app.authenticate,
      config: writeLimit(app, 'review'),
      schema: {
        tags,
        security,
        summary: 'Reply to a review (the class’s teacher; once)',
        description: '`content` 1-1000 characters. 418 for anyone but the teacher; 409 for a second reply.',
        params: ReviewParamsSchema,
        body: ReviewReplySchema,
        response: { 200: envelopeSchema(ReviewItemSchema), ...errorResponses(400, 401, 404, 409, 418, 429) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, reviewId } = request.params;
      const authorId = await replyToReview(app.db, classId, reviewId, user.id, request.body.content);
      void app.notifier.reviewReplied(classId, authorId);
      return ok(await answerReview(reviewId), '답글을 달았어요.', 'Reply posted.');
    },
  );
}
