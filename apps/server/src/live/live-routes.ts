import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClassIdParamsSchema, LiveStateSchema } from '@sea/contract/classes';
import { LiveTicketQuerySchema, LiveTicketSchema } from '@sea/contract/live-ticket';
import { ROUTES } from '@sea/contract/paths';
import { requireMember, requireTeacher } from '../classes/class-role.ts';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { requireUser } from '../plugins/auth.ts';
import { isLive, setLive } from './live-state.ts';
import { signLiveTicket } from './live-ticket.ts';

// `{}` or no body at all toggles, as older clients expect; `{active}` sets.
const LiveBodySchema = z
  .object({ active: z.boolean({ error: 'active는 true 또는 false여야 해요.' }).optional() })
  .nullish();
const LiveEnvelope = envelopeSchema(LiveStateSchema);
const security = [{ bearer: [] }];
const tags = ['live'];

/** Live state (read, set or toggle) and live tickets for the media service. */
export async function liveRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    ROUTES.classActive,
    {
      schema: {
        tags,
        summary: 'Whether the class is live',
        params: ClassIdParamsSchema,
        response: { 200: LiveEnvelope, ...errorResponses(400, 404) },
      },
    },
    async (request) =>
      ok({ active: await isLive(app.db, request.params.classId) }, '방송 상태예요.', 'Live state.'),
  );

  app.patch(
    ROUTES.classActive,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Set the live state ({active}); an empty body toggles it (teacher)',
        params: ClassIdParamsSchema,
        body: LiveBodySchema,
        response: { 200: LiveEnvelope, ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await requireTeacher(app.db, request.params.classId, user.id);
      const wasLive = await isLive(app.db, request.params.classId);
      const active = await setLive(app.db, request.params.classId, request.body?.active);
      if (active && !wasLive) void app.notifier.classWentLive(request.params.classId);
      return ok(
        { active },
        active ? '방송을 시작했어요.' : '방송을 종료했어요.',
        active ? 'Live.' : 'Not live.',
      );
    },
  );

  app.get(
    ROUTES.liveTicket,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary:
          'A short-lived ticket for the media service (teacher or student), naming the media node to enter',
        params: ClassIdParamsSchema,
        querystring: LiveTicketQuerySchema,
        response: { 200: envelopeSchema(LiveTicketSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      const role = await requireMember(app.db, classId, user.id);
      // Which media node: the one node, or (REDIS_URL) the class's origin or an edge with room, leaving out a
      // node the client could not reach if it is gone.
      const { unreachable } = request.query;
      const { mediaUrl, origin } = await app.mediaPlacement.target(classId, role, unreachable);
      const ticket = await signLiveTicket(app.config.mediaSecret, {
        sub: user.id,
        nickname: user.nickname,
        classId,
        role,
        ...(origin ? { origin } : {}),
      });
      return ok(
        { ticket, mediaUrl, iceServers: app.config.iceServers },
        '방송 입장권이에요.',
        'Live ticket.',
      );
    },
  );
}
