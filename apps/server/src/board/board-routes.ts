import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BoardSnapshotSchema, SessionBoardSchema } from '@sea/contract/board';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import { SessionParamsSchema } from '@sea/contract/sessions';
import { requireMember } from '../classes/class-role.ts';
import { liveSessions } from '../db/schema.ts';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { requireUser } from '../plugins/auth.ts';
import { replayClock } from '../replays/replay-clock.ts';
import { findSession } from '../sessions/session-rows.ts';
import { boardState, nicknameOf, sessionStrokes, stageLayout } from './board-store.ts';
import type { BoardWrites } from './board-writes.ts';
import { sessionBoard, strokeView } from './session-board.ts';

const tags = ['board'];
const security = [{ bearer: [] }];

/**
 * The board over HTTP: the current (or last) session's board for late joiners, and a session's board and
 * its replay, on the replay's clock (its chapters: chapters/chapter-routes.ts). Members read.
 */
export function boardRoutes(writes: BoardWrites) {
  return async (fastify: FastifyInstance): Promise<void> => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { db } = app;

    app.get(
      ROUTES.classBoard,
      {
        onRequest: app.authenticate,
        schema: {
          tags,
          security,
          summary: "The board of the class's live (or last) session: the stage, the writer and every stroke",
          params: ClassIdParamsSchema,
          response: { 200: envelopeSchema(BoardSnapshotSchema), ...errorResponses(400, 401, 404, 418) },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        const { classId } = request.params;
        await requireMember(db, classId, user.id);
        const [session] = await db
          .select({ id: liveSessions.id, endedAt: liveSessions.endedAt })
          .from(liveSessions)
          .where(and(eq(liveSessions.classId, classId)))
          .orderBy(desc(liveSessions.startedAt), desc(liveSessions.id))
          .limit(1);
        const empty = { material_id: null, page: null, blank_pages: 0, layout: 'board' as const };
        if (session === undefined) {
          return ok(
            { session_id: null, live: false, stage: empty, writer: null, strokes: [] },
            '판서예요.',
            'Board.',
          );
        }
        // Ink this server still holds for writing is part of the board already.
        await writes.flush();
        const state = await boardState(db, session.id);
        const strokes = await sessionStrokes(db, session.id, { visible: true });
        const writer =
          state.writerId === null
            ? null
            : { user_id: state.writerId, nickname: await nicknameOf(db, state.writerId) };
        const board = {
          session_id: session.id,
          live: session.endedAt === null,
          stage: {
            material_id: state.materialId,
            page: state.page,
            blank_pages: state.blankPages,
            layout: stageLayout(state.layout),
          },
          writer,
          strokes: strokes.map(strokeView),
        };
        return ok(board, '판서예요.', 'Board.');
      },
    );

    app.get(
      ROUTES.sessionBoard,
      {
        onRequest: app.authenticate,
        schema: {
          tags,
          security,
          summary: "A session's page changes and strokes with their offsets in the replay (members)",
          params: SessionParamsSchema,
          response: { 200: envelopeSchema(SessionBoardSchema), ...errorResponses(400, 401, 404, 418) },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        const { classId, sessionId } = request.params;
        const relation = await requireMember(db, classId, user.id);
        const session = await findSession(db, classId, sessionId, relation);
        await writes.flush();
        return ok(
          await sessionBoard(db, session.id, (await replayClock(app.files.replays, session)).toOffset),
          '판서 기록이에요.',
          'Session board.',
        );
      },
    );
  };
}
