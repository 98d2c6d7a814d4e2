import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { InstructorParamsSchema, InstructorSchema } from '@sea/contract/instructors';
import { ROUTES } from '@sea/contract/paths';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { cachedRead } from '../plugins/read-cache.ts';
import { findInstructor } from './find-instructor.ts';

/** `GET /api/instructors/{userId}`: the public instructor page. */
export async function instructorRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const imageUrl = (key: string) => app.storage.url(key);
  const cache = cachedRead(app);
  app.get(
    ROUTES.instructor,
    {
      onRequest: cache.onRequest,
      onSend: cache.onSend,
      schema: {
        tags: ['instructors'],
        summary: 'An instructor: profile, introduction, classes (newest first, at most 100) and totals',
        params: InstructorParamsSchema,
        response: { 200: envelopeSchema(InstructorSchema), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const instructor = await findInstructor(app.db, request.params.userId, imageUrl);
      return ok(instructor, '강사 정보예요.', 'Instructor.');
    },
  );
}
