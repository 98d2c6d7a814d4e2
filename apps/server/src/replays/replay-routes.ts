import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import {
  SessionChatMessageSchema,
  SessionClassroomSchema,
  SessionDetailSchema,
  SessionItemSchema,
  SessionParamsSchema,
  SessionPatchSchema,
  WatchBeatSchema,
  WatchStateSchema,
} from '@sea/contract/sessions';
import { creditBeat, resumePoint } from '../attendance/watch-time.ts';
import { requireMember, requireTeacher } from '../classes/class-role.ts';
import { classes } from '../db/schema.ts';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { badRequest, conflict } from '../errors.ts';
import { requireUser } from '../plugins/auth.ts';
import { findSession, listSessions, updateSession } from '../sessions/session-rows.ts';
import { recordingFilesOf, removeSessionRecordings } from './recording-removal.ts';
import { readReplayTimeline } from './replay-files.ts';
import { sessionChat } from './session-chat.ts';
import { sessionClassroom } from './session-classroom.ts';
import { toSessionItem } from './session-item.ts';

const security = [{ bearer: [] }];
const tags = ['sessions'];

/** A class's live sessions and their replays: listed and watched by members, managed by the teacher. */
export async function replayRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  /** The ready replay's clock (the teacher's pauses cut out), or null: offsets are then the session's time. */
  const replayTimelineOf = async (session: { id: number; recordingState: string }) =>
    session.recordingState === 'ready' ? await readReplayTimeline(app.files.replays, session.id) : null;

  app.get(
    ROUTES.sessions,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The class’s live sessions, newest first, with their replays (teacher or student)',
        description:
          'Hidden replays are listed only to the teacher. `hls_url` and `mp4_url` are signed URLs of the ' +
          'caller (a few hours), given only when the replay is ready; they stop opening the files as soon ' +
          'as the caller may no longer watch (replay hidden, unenrolled, withdrawn).',
        params: ClassIdParamsSchema,
        response: { 200: envelopeSchema(z.array(SessionItemSchema)), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      const relation = await requireMember(app.db, classId, user.id);
      const rows = await listSessions(app.db, classId, relation);
      const now = new Date();
      return ok(
        rows.map((row) => toSessionItem(row, app.replayUrls.forViewer(user.id), now)),
        '강의 세션 목록이에요.',
        'Sessions.',
      );
    },
  );

  app.get(
    ROUTES.session,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'One session, with where the caller left off in its replay (teacher or student)',
        params: SessionParamsSchema,
        response: { 200: envelopeSchema(SessionDetailSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId } = request.params;
      const relation = await requireMember(app.db, classId, user.id);
      const row = await findSession(app.db, classId, sessionId, relation);
      const resume = await resumePoint(app.db, sessionId, user.id);
      return ok(
        { ...toSessionItem(row, app.replayUrls.forViewer(user.id)), resume_s: resume },
        '강의 세션이에요.',
        'Session.',
      );
    },
  );

  app.patch(
    ROUTES.session,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Rename or hide a replay (teacher); a blank title clears it',
        params: SessionParamsSchema,
        body: SessionPatchSchema,
        response: { 200: envelopeSchema(SessionItemSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId } = request.params;
      await requireTeacher(app.db, classId, user.id);
      await findSession(app.db, classId, sessionId, 'teacher');
      const row = await updateSession(app.db, sessionId, request.body);
      return ok(
        toSessionItem(row, app.replayUrls.forViewer(user.id)),
        '다시보기 정보를 바꿨어요.',
        'Session updated.',
      );
    },
  );

  app.delete(
    ROUTES.session,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Delete a session’s replay and raw recording (teacher); the session stays, state `none`',
        params: SessionParamsSchema,
        response: { 200: envelopeSchema(SessionItemSchema), ...errorResponses(400, 401, 404, 409, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId } = request.params;
      await requireTeacher(app.db, classId, user.id);
      const session = await findSession(app.db, classId, sessionId, 'teacher');
      if (session.endedAt === null) {
        throw conflict(
          '진행 중인 강의의 녹화는 강의가 끝난 뒤에 삭제할 수 있어요.',
          'A live session’s recording can be deleted once the lecture has ended.',
        );
      }
      await removeSessionRecordings(recordingFilesOf(app), [sessionId]);
      const row = await findSession(app.db, classId, sessionId, 'teacher');
      return ok(
        toSessionItem(row, app.replayUrls.forViewer(user.id)),
        '다시보기를 삭제했어요.',
        'Replay deleted.',
      );
    },
  );

  app.get(
    ROUTES.sessionChat,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The chat of a session, in time order, with each message’s offset in the replay',
        description:
          '`offset_ms` is measured from the session’s start on the replay’s clock: stretches where the ' +
          'teacher paused recording are cut out, as they are from the replay.',
        params: SessionParamsSchema,
        response: {
          200: envelopeSchema(z.array(SessionChatMessageSchema)),
          ...errorResponses(400, 401, 404, 418),
        },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId } = request.params;
      const relation = await requireMember(app.db, classId, user.id);
      const session = await findSession(app.db, classId, sessionId, relation);
      const [owner] = await app.db
        .select({ teacherId: classes.teacherId })
        .from(classes)
        .where(eq(classes.id, classId));
      const messages = await sessionChat(
        app.db,
        session,
        owner?.teacherId ?? '',
        (key) => app.storage.url(key),
        await replayTimelineOf(session),
      );
      return ok(messages, '강의 세션의 채팅이에요.', 'Session chat.');
    },
  );

  app.get(
    ROUTES.sessionClassroom,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The questions and polls of a session, in time order, with each one’s offset in the replay',
        description:
          'For the replay’s chat pane, with the access of the session chat. Each is as the live room shows ' +
          'it to the caller: an anonymous question’s author only to the teacher and the asker; a poll’s ' +
          'results and a quiz’s answer to the teacher, and to students only when the teacher revealed them. ' +
          '`offset_ms` is the moment a question was asked or a poll opened, on the replay’s clock as the ' +
          'chat’s.',
        params: SessionParamsSchema,
        response: {
          200: envelopeSchema(SessionClassroomSchema),
          ...errorResponses(400, 401, 404, 418),
        },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId } = request.params;
      const role = await requireMember(app.db, classId, user.id);
      const session = await findSession(app.db, classId, sessionId, role);
      const classroom = await sessionClassroom(
        app.db,
        session,
        { userId: user.id, role },
        await replayTimelineOf(session),
      );
      return ok(classroom, '강의 세션의 질문과 투표예요.', 'Session questions and polls.');
    },
  );

  app.post(
    ROUTES.sessionWatch,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'A beat of the replay player: counts watch time and saves the resume point',
        description:
          'Sent every 5 s while the replay is open, and on pause, seek and close. The seconds of the video ' +
          'the tab played since its last beat (`from_s` to `position_s`) are credited, each second of the ' +
          'replay once however often played: at most the wall clock since the member’s previous beat (6 s at ' +
          'most) at twice the speed; a seek credits that time from `from_s` on. `watched_s` never passes the ' +
          'replay’s length; a `position_s` or `from_s` past its end is 400.',
        params: SessionParamsSchema,
        body: WatchBeatSchema,
        response: { 200: envelopeSchema(WatchStateSchema), ...errorResponses(400, 401, 404, 409, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId } = request.params;
      const relation = await requireMember(app.db, classId, user.id);
      const session = await findSession(app.db, classId, sessionId, relation);
      if (session.recordingState !== 'ready') {
        throw conflict('다시보기가 아직 준비되지 않았어요.', 'The replay is not ready.');
      }
      const lengthMs = session.replayDurationMs;
      // A second of slack for the player's rounding of the last frame.
      const furthest = Math.max(request.body.position_s, request.body.from_s ?? 0);
      if (lengthMs !== null && furthest > lengthMs / 1000 + 1) {
        throw badRequest(
          '재생 위치가 다시보기 길이를 넘어요.',
          'The position is past the end of the replay.',
        );
      }
      const state = await creditBeat(app.db, sessionId, user.id, request.body, new Date(), lengthMs);
      return ok(state, '시청 시간을 기록했어요.', 'Watch time recorded.');
    },
  );
}
