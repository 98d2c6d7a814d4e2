import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import { compareQuestions, QuestionListQuerySchema, QuestionListSchema } from '@sea/contract/classroom';
import { ROUTES } from '@sea/contract/paths';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { requireMember } from '../classes/class-role.ts';
import { notFound } from '../errors.ts';
import { requireUser } from '../plugins/auth.ts';
import { isSessionOf, openSessionOf } from '../sessions/session-store.ts';
import { listQuestions } from '../sessions/question-store.ts';

/** `GET /api/classes/{id}/questions`: the questions of the open live session, or of `?session=`. */
export async function questionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    ROUTES.classQuestions,
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['classes'],
        security: [{ bearer: [] }],
        summary:
          "The questions of the class's open live session (or ?session=), pinned first then by votes; " +
          'anonymous authors hidden from other students',
        params: ClassIdParamsSchema,
        querystring: QuestionListQuerySchema,
        response: { 200: envelopeSchema(QuestionListSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      const role = await requireMember(app.db, classId, user.id);
      const asked = request.query.session;
      if (
        asked !== undefined &&
        !(await isSessionOf(app.db, classId, asked, { teacher: role === 'teacher' }))
      ) {
        throw notFound('session');
      }
      const sessionId = asked ?? (await openSessionOf(app.db, classId));
      const questions =
        sessionId === null ? [] : await listQuestions(app.db, sessionId, { userId: user.id, role });
      return ok({ sessionId, questions: questions.sort(compareQuestions) }, '질문 목록이에요.', 'Questions.');
    },
  );
}
