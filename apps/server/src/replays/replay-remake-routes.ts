import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ROUTES } from '@sea/contract/paths';
import { SessionItemSchema, SessionParamsSchema } from '@sea/contract/sessions';
import { requireTeacher } from '../classes/class-role.ts';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { conflict } from '../errors.ts';
import { hurryJobs } from '../jobs/job-queue.ts';
import { requireUser } from '../plugins/auth.ts';
import { findSession } from '../sessions/session-rows.ts';
import { enqueueReplay, replayJobKey } from './enqueue-replay.ts';
import { REPLAY_JOB } from './replay-job.ts';
import { toSessionItem } from './session-item.ts';

/**
 * The teacher's '다시 만들기': a failed replay is made again from its raw recording (kept until a replay of it
 * is made and checked), and one waiting for its cause to go (a full disk, ffmpeg missing) is tried now.
 */
export async function replayRemakeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    ROUTES.sessionRemake,
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['sessions'],
        security: [{ bearer: [] }],
        summary: 'Make a failed or waiting replay again from its raw recording (teacher)',
        description:
          'A `failed` replay goes back to `processing` with a new job; a `processing` one waiting for its cause ' +
          'to go (its `error` says what) is tried at once. Any other state (`none`, `recording`, `ready`) is ' +
          '409. Answers the session item.',
        params: SessionParamsSchema,
        response: { 200: envelopeSchema(SessionItemSchema), ...errorResponses(400, 401, 404, 409, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId } = request.params;
      await requireTeacher(app.db, classId, user.id);
      const session = await findSession(app.db, classId, sessionId, 'teacher');
      const state = session.recordingState;
      if (session.endedAt === null || (state !== 'failed' && state !== 'processing')) {
        throw conflict(
          '실패했거나 기다리는 다시보기만 다시 만들 수 있어요.',
          'Only a failed or waiting replay can be made again.',
        );
      }
      await enqueueReplay(app.db, sessionId);
      await hurryJobs(app.db, REPLAY_JOB, replayJobKey(sessionId));
      const row = await findSession(app.db, classId, sessionId, 'teacher');
      return ok(
        toSessionItem(row, app.replayUrls.forViewer(user.id)),
        '다시보기를 다시 만들고 있어요.',
        'Replay queued again.',
      );
    },
  );
}
