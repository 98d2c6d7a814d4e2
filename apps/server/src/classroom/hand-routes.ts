import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import { HandsViewSchema } from '@sea/contract/classroom';
import { ROUTES } from '@sea/contract/paths';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { requireMember } from '../classes/class-role.ts';
import { requireUser } from '../plugins/auth.ts';
import { handQueue, handsAs } from './hand-store.ts';

/** `GET /api/classes/{id}/hands`: the room's raised hands as the reader sees them (read after subscribing). */
export async function handRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    ROUTES.classHands,
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['classes'],
        security: [{ bearer: [] }],
        summary:
          "The room's raised hands: the queue for the teacher, the count and one's own hand for a student",
        params: ClassIdParamsSchema,
        response: { 200: envelopeSchema(HandsViewSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      const role = await requireMember(app.db, classId, user.id);
      const queue = await handQueue(app.db, classId);
      return ok(
        handsAs(classId, queue, { userId: user.id, teacher: role === 'teacher' }),
        '손든 학생이에요.',
        'Hands.',
      );
    },
  );
}
