import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MyLiveClassSchema } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { requireUser } from '../plugins/auth.ts';
import { ROLE_NAMES } from './class-role.ts';
import { listMyLiveClasses } from './my-live-classes.ts';

/** `GET /api/users/live-classes`: where the caller's LIVE cards lead straight into the room. */
export async function myLiveClassesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    ROUTES.myLiveClasses,
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['classes'],
        security: [{ bearer: [] }],
        summary: 'The caller’s classes that are live now, with the caller’s role (강사 or 수강생) in each',
        response: { 200: envelopeSchema(z.array(MyLiveClassSchema)), ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const rows = await listMyLiveClasses(app.db, user.id);
      const data = rows.map((row) => ({ id: row.id, role: ROLE_NAMES[row.relation] as '강사' | '수강생' }));
      return ok(data, '라이브 중인 내 강의예요.', 'My live classes.');
    },
  );
}
