import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MediaNodeIdSchema, MediaNodeReportSchema, MediaRevocationSchema } from '@sea/contract/media-nodes';
import { ROUTES } from '@sea/contract/paths';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { verifyMediaCall } from '../live/live-ticket.ts';
import { applyReport } from './apply-report.ts';

/** A media node's report of its rooms (internal; bearer signed with MEDIA_SECRET), answered with what to end. */
export async function mediaNodeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.put(
    ROUTES.mediaNodeReport,
    {
      onRequest: async (request) => verifyMediaCall(app.config.mediaSecret, request.headers.authorization),
      schema: {
        tags: ['internal'],
        summary:
          'Media node → API server: its open rooms and the rooms closed since (bearer signed with ' +
          'MEDIA_SECRET); answers what the node must end',
        params: z.object({ nodeId: MediaNodeIdSchema }),
        body: MediaNodeReportSchema,
        response: { 200: envelopeSchema(MediaRevocationSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { nodeId } = request.params;
      const outcome = await applyReport(app.db, nodeId, request.body);
      for (const session of outcome.ended) await app.events.emit('sessionEnded', session);
      for (const session of outcome.started) await app.events.emit('recordingStarted', session);
      for (const classId of outcome.wentLive) void app.notifier.classWentLive(classId);
      if (outcome.firstOfBoot) {
        app.log.info(
          { nodeId, url: request.body.url, rooms: request.body.rooms.length },
          'media node started',
        );
        void app.mediaNodes.probe(nodeId, request.body.url, request.body.boot);
      }
      return ok(outcome.revocation, '미디어 서버의 상태를 반영했어요.', 'Report applied.');
    },
  );
}
