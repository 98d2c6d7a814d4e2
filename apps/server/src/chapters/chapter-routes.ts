import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ChaptersPatchSchema } from '@sea/contract/board';
import {
  type ChapterId,
  ChapterCreateSchema,
  ChapterParamsSchema,
  ChapterPatchSchema,
  ChapterSchema,
} from '@sea/contract/chapters';
import { ROUTES } from '@sea/contract/paths';
import { SessionParamsSchema } from '@sea/contract/sessions';
import { removeStageChapter, renameStages } from '../board/board-store.ts';
import { requireMember, requireTeacher } from '../classes/class-role.ts';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { badRequest, HttpError } from '../errors.ts';
import { requireUser } from '../plugins/auth.ts';
import { pinnedAt, replayClock } from '../replays/replay-clock.ts';
import { findSession, type SessionRow } from '../sessions/session-rows.ts';
import {
  addMark,
  chapterList,
  MAX_CHAPTER_MARKS,
  markCount,
  removeMark,
  updateMark,
} from './chapter-list.ts';

const tags = ['chapters'];
const security = [{ bearer: [] }];
const ListSchema = envelopeSchema(z.array(ChapterSchema));

function chapterNotFound(): HttpError {
  return new HttpError(404, '챕터를 찾을 수 없어요.', 'Chapter not found.');
}

function parseId(id: ChapterId): { kind: 'page' | 'mark'; id: number } {
  return { kind: id.startsWith('page-') ? 'page' : 'mark', id: Number(id.slice(5)) };
}

/**
 * A session's chapters over HTTP: members read the one list (page chapters and the teacher's marks); the
 * teacher adds marks (live at "now", or at a replay time), renames, moves (a mark) and removes them. Every
 * change of a ready replay's chapters is written into its files shortly after (replays/replay-chapters.ts).
 */
export async function chapterRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;
  const list = async (session: SessionRow) =>
    chapterList(db, session, await replayClock(app.files.replays, session));
  /** The teacher's session of the class, or 418 / 404. */
  const teacherSession = async (userId: string, classId: number, sessionId: number) => {
    await requireTeacher(db, classId, userId);
    return findSession(db, classId, sessionId, 'teacher');
  };
  const changed = (session: SessionRow) => app.replayChapters.changed(session.id);

  app.replayChapters.useSource(async (session, clock) =>
    (await chapterList(db, session, clock)).map((chapter) => ({
      offsetMs: chapter.offset_ms,
      title: chapter.title,
    })),
  );

  app.get(
    ROUTES.sessionChapters,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary:
          "A session's chapters: the teacher's marks and the pages stayed on for 10 s or more (members)",
        params: SessionParamsSchema,
        response: { 200: ListSchema, ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId } = request.params;
      const relation = await requireMember(db, classId, user.id);
      const session = await findSession(db, classId, sessionId, relation);
      return ok(await list(session), '챕터 목록이에요.', 'Chapters.');
    },
  );

  app.post(
    ROUTES.sessionChapters,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary:
          'Add a chapter mark (teacher): at `offset_ms` on the replay clock, or without it at the live lecture’s now',
        params: SessionParamsSchema,
        body: ChapterCreateSchema,
        response: { 200: ListSchema, ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId } = request.params;
      const session = await teacherSession(user.id, classId, sessionId);
      const clock = await replayClock(app.files.replays, session);
      const at = pinnedAt(clock, session.endedAt === null, request.body.offset_ms);
      if ((await markCount(db, session.id)) >= MAX_CHAPTER_MARKS) {
        throw badRequest(
          `챕터는 한 강의에 ${MAX_CHAPTER_MARKS}개까지 만들 수 있어요.`,
          'Too many chapter marks in this session.',
        );
      }
      await addMark(db, session.id, at, request.body.title);
      changed(session);
      return ok(await chapterList(db, session, clock), '챕터를 추가했어요.', 'Chapter added.');
    },
  );

  app.patch(
    ROUTES.sessionChapters,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary:
          "Rename a session's chapters (teacher); a page chapter's blank title goes back to the page's own",
        params: SessionParamsSchema,
        body: ChaptersPatchSchema,
        response: { 200: ListSchema, ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId } = request.params;
      const session = await teacherSession(user.id, classId, sessionId);
      const pages: { id: number; title: string | null }[] = [];
      for (const { id, title } of request.body.chapters) {
        const chapter = typeof id === 'number' ? { kind: 'page', id } : parseId(id);
        if (chapter.kind === 'page') pages.push({ id: chapter.id, title });
        else if (title !== null) await updateMark(db, session.id, chapter.id, { title });
      }
      await renameStages(db, session.id, pages);
      changed(session);
      return ok(await list(session), '챕터 이름을 바꿨어요.', 'Renamed.');
    },
  );

  app.patch(
    ROUTES.sessionChapter,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary:
          "Rename a chapter or move a mark (teacher); a page chapter's blank title goes back to the page's own",
        params: ChapterParamsSchema,
        body: ChapterPatchSchema,
        response: { 200: ListSchema, ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId, chapterId } = request.params;
      const session = await teacherSession(user.id, classId, sessionId);
      const clock = await replayClock(app.files.replays, session);
      const { offset_ms: offsetMs, title } = request.body;
      const chapter = parseId(chapterId);
      let found: boolean;
      if (chapter.kind === 'page') {
        if (offsetMs !== undefined) {
          const message = '페이지 챕터의 시간은 페이지를 넘긴 때라서 바꿀 수 없어요.';
          throw badRequest(message, 'A page chapter starts where its page was shown.', {
            offset_ms: message,
          });
        }
        found =
          title === undefined
            ? (await chapterList(db, session, clock)).some((item) => item.id === chapterId)
            : (await renameStages(db, session.id, [{ id: chapter.id, title: title || null }])) > 0;
      } else {
        if (title === '') {
          const message = '챕터 이름을 입력해 주세요.';
          throw badRequest(message, 'A chapter title is required.', { title: message });
        }
        const at = offsetMs === undefined ? undefined : pinnedAt(clock, false, offsetMs);
        found = await updateMark(db, session.id, chapter.id, {
          ...(at === undefined ? {} : { at }),
          ...(title === undefined ? {} : { title }),
        });
      }
      if (!found) throw chapterNotFound();
      changed(session);
      return ok(await chapterList(db, session, clock), '챕터를 바꿨어요.', 'Chapter changed.');
    },
  );

  app.delete(
    ROUTES.sessionChapter,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Remove a chapter (teacher): a mark goes, a page chapter leaves the list',
        params: ChapterParamsSchema,
        response: { 200: ListSchema, ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId, chapterId } = request.params;
      const session = await teacherSession(user.id, classId, sessionId);
      const chapter = parseId(chapterId);
      const removed =
        chapter.kind === 'page'
          ? await removeStageChapter(db, session.id, chapter.id)
          : await removeMark(db, session.id, chapter.id);
      if (!removed) throw chapterNotFound();
      changed(session);
      return ok(await list(session), '챕터를 지웠어요.', 'Chapter removed.');
    },
  );
}
