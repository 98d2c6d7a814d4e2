import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import {
  type Note,
  NoteCreateSchema,
  NoteParamsSchema,
  NotePatchSchema,
  NoteSchema,
  NotesExportQuerySchema,
  notesAsciiName,
  notesFileName,
} from '@sea/contract/notes';
import { ROUTES } from '@sea/contract/paths';
import { SessionParamsSchema } from '@sea/contract/sessions';
import { requireMember } from '../classes/class-role.ts';
import { classes } from '../db/schema.ts';
import { DoneSchema, done, envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { badRequest, HttpError } from '../errors.ts';
import { requireUser } from '../plugins/auth.ts';
import { pinnedAt, type ReplayClock, replayClock } from '../replays/replay-clock.ts';
import { attachment } from '../content-disposition.ts';
import { findSession, listSessions } from '../sessions/session-rows.ts';
import {
  addNote,
  MAX_NOTES_PER_SESSION,
  type NoteRow,
  ownNotes,
  ownNotesOf,
  removeNote,
  updateNote,
} from './note-store.ts';
import { notesMarkdown } from './notes-markdown.ts';

const tags = ['notes'];
const security = [{ bearer: [] }];

function noteNotFound(): HttpError {
  return new HttpError(404, '메모를 찾을 수 없어요.', 'Note not found.');
}

function noteView(row: NoteRow, clock: ReplayClock): Note {
  return {
    id: row.id,
    session_id: row.sessionId,
    offset_ms: clock.toOffset(row.at),
    content: row.content,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * A member's private notes on a class's sessions: each member (its students and its teacher) reads and writes
 * only their own; another user's note is 404 to everyone. Pinned to moments of the session, so a note taken
 * live shows at its place in the replay. Exported as one Markdown file per class.
 */
export async function noteRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;
  /** The session of the class the member may see, with its replay clock. */
  const memberSession = async (userId: string, classId: number, sessionId: number) => {
    const relation = await requireMember(db, classId, userId);
    const session = await findSession(db, classId, sessionId, relation);
    return { session, clock: await replayClock(app.files.replays, session) };
  };

  app.get(
    ROUTES.sessionNotes,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The caller's own notes on a session, in time order (members)",
        params: SessionParamsSchema,
        response: { 200: envelopeSchema(z.array(NoteSchema)), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId } = request.params;
      const { session, clock } = await memberSession(user.id, classId, sessionId);
      const rows = await ownNotes(db, user.id, session.id);
      return ok(
        rows.map((row) => noteView(row, clock)),
        '메모 목록이에요.',
        'Notes.',
      );
    },
  );

  app.post(
    ROUTES.sessionNotes,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Add a note at `offset_ms` of the replay, or without it at the live lecture’s now (members)',
        params: SessionParamsSchema,
        body: NoteCreateSchema,
        response: { 200: envelopeSchema(NoteSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId } = request.params;
      const { session, clock } = await memberSession(user.id, classId, sessionId);
      const at = pinnedAt(clock, session.endedAt === null, request.body.offset_ms);
      if ((await ownNotes(db, user.id, session.id)).length >= MAX_NOTES_PER_SESSION) {
        throw badRequest(
          `메모는 한 강의에 ${MAX_NOTES_PER_SESSION.toLocaleString('ko-KR')}개까지 남길 수 있어요.`,
          'Too many notes on this session.',
        );
      }
      const row = await addNote(db, {
        userId: user.id,
        sessionId: session.id,
        at,
        content: request.body.content,
      });
      return ok(noteView(row, clock), '메모를 남겼어요.', 'Note added.');
    },
  );

  app.patch(
    ROUTES.sessionNote,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: "Change one of the caller's own notes (its text and/or time)",
        params: NoteParamsSchema,
        body: NotePatchSchema,
        response: { 200: envelopeSchema(NoteSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId, noteId } = request.params;
      const { session, clock } = await memberSession(user.id, classId, sessionId);
      const { offset_ms: offsetMs, content } = request.body;
      const row = await updateNote(
        db,
        { userId: user.id, sessionId: session.id, id: noteId },
        {
          ...(offsetMs === undefined ? {} : { at: pinnedAt(clock, false, offsetMs) }),
          ...(content === undefined ? {} : { content }),
        },
      );
      if (row === undefined) throw noteNotFound();
      return ok(noteView(row, clock), '메모를 고쳤어요.', 'Note changed.');
    },
  );

  app.delete(
    ROUTES.sessionNote,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: "Delete one of the caller's own notes",
        params: NoteParamsSchema,
        response: { 200: DoneSchema, ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, sessionId, noteId } = request.params;
      const { session } = await memberSession(user.id, classId, sessionId);
      if (!(await removeNote(db, { userId: user.id, sessionId: session.id, id: noteId })))
        throw noteNotFound();
      return done('메모를 지웠어요.', 'Note deleted.');
    },
  );

  app.get(
    ROUTES.classNotes,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Every note of the caller in a class as a Markdown file (`?format=md`), lecture by lecture',
        description:
          'A `text/markdown; charset=utf-8` attachment named `notes-{classId}.md`, with the class name as the ' +
          'RFC 5987 `filename*`: a heading per lecture (title and start in Korean time), each note with its time.',
        params: ClassIdParamsSchema,
        querystring: NotesExportQuerySchema,
        response: { 200: z.string().describe('the Markdown file'), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      const relation = await requireMember(db, classId, user.id);
      const [info] = await db.select({ name: classes.name }).from(classes).where(eq(classes.id, classId));
      const sessions = (await listSessions(db, classId, relation)).reverse();
      const notes = await ownNotesOf(
        db,
        user.id,
        sessions.map((session) => session.id),
      );
      const exported = await Promise.all(
        sessions.map(async (session) => {
          const own = notes.filter((note) => note.sessionId === session.id);
          const clock = own.length === 0 ? null : await replayClock(app.files.replays, session);
          return {
            title: session.title,
            startedAt: session.startedAt,
            notes: own.map((note) => ({ offsetMs: clock?.toOffset(note.at) ?? 0, content: note.content })),
          };
        }),
      );
      const name = info?.name ?? '강의';
      return reply
        .header('content-type', 'text/markdown; charset=utf-8')
        .header('content-disposition', attachment(notesAsciiName(classId), notesFileName(name)))
        .header('cache-control', 'private, no-store')
        .send(notesMarkdown(name, exported));
    },
  );
}
