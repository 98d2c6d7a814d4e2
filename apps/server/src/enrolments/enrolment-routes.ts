import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import { DoneSchema, done, errorResponses } from '../envelope.ts';
import { requireUser } from '../plugins/auth.ts';
import { writeLimit } from '../plugins/rate-limit.ts';
import { enrol, unenrol } from './enrol.ts';

/** `POST /api/classes/{id}/enroll` and `DELETE` (수강 취소). */
export async function enrolmentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Both ways are a signed-in student's write, limited per account (sixty flips were sixty notices).
  const shared = { onRequest: app.authenticate, config: writeLimit(app, 'enrolment') };
  const schema = {
    tags: ['classes'],
    security: [{ bearer: [] }],
    params: ClassIdParamsSchema,
    response: { 200: DoneSchema, ...errorResponses(400, 401, 404, 418, 429) },
  };
  app.post(
    ROUTES.enroll,
    {
      ...shared,
      schema: { ...schema, summary: 'Enrol in a class (418 when already enrolled or the teacher)' },
    },
    async (request) => {
      const user = await requireUser(request);
      await enrol(app.db, request.params.classId, user.id);
      void app.notifier.studentEnrolled(request.params.classId, user.nickname);
      return done('수강 신청을 완료했어요.', 'Enrolled.');
    },
  );

  app.delete(
    ROUTES.enroll,
    {
      ...shared,
      schema: {
        ...schema,
        summary: 'Cancel an enrolment (418 when not enrolled, so a second call too, or the teacher)',
        description:
          'The student count drops at once; the student’s chat connections and live room of the class ' +
          'close (the chat within a second, the media node is told at once and again at its next report).',
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      await unenrol(app.db, classId, user.id);
      await app.events.emit('enrolmentEnded', { classId, userId: user.id });
      return done('수강을 취소했어요.', 'Enrolment cancelled.');
    },
  );
}
