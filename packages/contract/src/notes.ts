import { z } from 'zod';
import { OffsetMsSchema } from './chapters.ts';
import { safeFileName } from './file-names.ts';
import { idText } from './ids.ts';
import { SessionParamsSchema } from './sessions.ts';
import { requiredText } from './text.ts';

// Timestamped notes: a member's private notes on a session, each pinned to a moment of it on the replay's clock
// (as chapters.ts). Only the writer reads them: another user's note answers 404, whoever asks.

/** Longest note, in characters. */
export const NOTE_MAX = 2_000;

const noteContent = requiredText('메모 내용을 입력해 주세요.', {
  max: NOTE_MAX,
  lengthMessage: `메모는 ${NOTE_MAX.toLocaleString('ko-KR')}자 이하로 입력해 주세요.`,
});

/** One note, as the routes answer it. */
export const NoteSchema = z.object({
  id: z.number().int(),
  session_id: z.number().int(),
  offset_ms: z.number().int().min(0),
  content: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Note = z.infer<typeof NoteSchema>;

/**
 * Body of `POST .../sessions/{sessionId}/notes`: at `offset_ms`, or without it (only while the lecture is on) at
 * the lecture's "now" by the server's clock, where the replay will show it.
 */
export const NoteCreateSchema = z.object({
  offset_ms: OffsetMsSchema.optional(),
  content: noteContent,
});
export type NoteCreate = z.infer<typeof NoteCreateSchema>;

/** Body of `PATCH .../notes/{noteId}`: a new text and/or time. */
export const NotePatchSchema = z.object({
  offset_ms: OffsetMsSchema.optional(),
  content: noteContent.optional(),
});
export type NotePatch = z.infer<typeof NotePatchSchema>;

/** Path of one note. */
export const NoteParamsSchema = SessionParamsSchema.extend({
  noteId: idText('메모 번호가 올바르지 않아요.'),
});

/** Query of `GET /api/classes/{classId}/notes`: `format=md` (the only one) exports them as a Markdown file. */
export const NotesExportQuerySchema = z.object({
  format: z.literal('md', { error: 'format은 md만 쓸 수 있어요.' }).default('md'),
});

/** The notes export's file name: '파동 물리 메모.md' (the server's header, and the web app's saved blob). */
export function notesFileName(className: string | null | undefined): string {
  return `${safeFileName(className, '강의')} 메모.md`;
}

/** The notes export's name for clients that read only an ASCII name. */
export function notesAsciiName(classId: number): string {
  return `notes-${classId}.md`;
}
