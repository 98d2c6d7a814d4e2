import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import { PollListSchema, QuestionListQuerySchema } from '@sea/contract/classroom';
import { ROUTES } from '@sea/contract/paths';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { requireMember } from '../classes/class-role.ts';
import { notFound } from '../errors.ts';
import { requireUser } from '../plugins/auth.ts';
import { isSessionOf, openSessionOf } from '../sessions/session-store.ts';
import { listPolls, pollAs } from '../sessions/poll-store.ts';

/** `GET /api/classes/{id}/polls`: the polls of the open live session, or of `?session=`, with one's own answers. */
export async function pollRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    ROUTES.classPolls,
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['classes'],
        security: [{ bearer: [] }],
        summary:
          "The polls of the class's open live session (or ?session=); results for students once revealed",
        params: ClassIdParamsSchema,
        querystring: QuestionListQuerySchema,
        response: { 200: envelopeSchema(PollListSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      const teacher = (await requireMember(app.db, classId, user.id)) === 'teacher';
      const asked = request.query.session;
      if (asked !== undefined && !(await isSessionOf(app.db, classId, asked, { teacher }))) {
        throw notFound('session');
      }
      const sessionId = asked ?? (await openSessionOf(app.db, classId));
      const rows = sessionId === null ? [] : await listPolls(app.db, sessionId);
      const polls = rows.map((row) =>
        pollAs(row, { teacher, myVote: row.votes.find((vote) => vote.userId === user.id)?.options ?? null }),
      );
      return ok({ sessionId, polls }, '투표 목록이에요.', 'Polls.');
    },
  );
}
