import type { FastifyInstance } from 'fastify';
import { ROUTES } from '@sea/contract/paths';
import { isDatabaseUp } from '../db/open-database.ts';

/** `GET /health`: plain `OK` while the database answers, 503 otherwise. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const schema = { tags: ['health'], summary: 'Plain OK while the database answers' };
  app.get(ROUTES.health, { schema }, async (_request, reply) => {
    const up = await isDatabaseUp(app.db);
    return reply
      .code(up ? 200 : 503)
      .type('text/plain')
      .send(up ? 'OK' : 'Database unavailable');
  });
}
