import { z } from 'zod';
import { MAX_ID } from './ids.ts';
import { SessionParamsSchema } from './sessions.ts';
import { requiredText } from './text.ts';

// The chapters of a replay: one list per session of the teacher's chapter marks ('여기서 새 챕터' in the live
// room, or added on the replay page) and the board's page chapters (each page stayed on at least 10 s, board.ts).
// Offsets are on the replay's clock, as the chat's and the board's: milliseconds from the session's start with
// the teacher's paused stretches cut out (the plain time since the start before the replay is ready).

/** Longest chapter title, in characters. */
export const CHAPTER_TITLE_MAX = 100;

/** What a chapter comes from: a page of the board, or the teacher's mark. */
export const CHAPTER_KINDS = ['page', 'mark'] as const;
export type ChapterKind = (typeof CHAPTER_KINDS)[number];

const CHAPTER_ID_MESSAGE = '챕터 번호가 올바르지 않아요.';

/** A chapter's id: `page-{page change id}` or `mark-{mark id}`, one id space for the whole list. */
export const ChapterIdSchema = z
  .string()
  .regex(/^(page|mark)-[1-9][0-9]{0,9}$/, CHAPTER_ID_MESSAGE)
  .refine((id) => Number(id.slice(5)) <= MAX_ID, CHAPTER_ID_MESSAGE);
export type ChapterId = z.infer<typeof ChapterIdSchema>;

/**
 * A chapter of a replay, in the list's time order. `duration_ms`: until the next chapter, or for the last one
 * its page's stay (a page chapter) or the session's end (a mark). A page chapter's `title` is the teacher's,
 * else the page's first line of text, else '빈 페이지 N'; `renamed` says it is the teacher's (a mark's always
 * is). `material_id` and `page` are the page's, null for a mark.
 */
export const ChapterSchema = z.object({
  id: ChapterIdSchema,
  kind: z.enum(CHAPTER_KINDS),
  offset_ms: z.number().int().min(0),
  duration_ms: z.number().int().min(0),
  material_id: z.number().int().nullable(),
  page: z.number().int().nullable(),
  title: z.string(),
  renamed: z.boolean(),
});
export type Chapter = z.infer<typeof ChapterSchema>;

const chapterTitle = requiredText('챕터 이름을 입력해 주세요.', {
  max: CHAPTER_TITLE_MAX,
  multiline: false,
  lengthMessage: `챕터 이름은 ${CHAPTER_TITLE_MAX}자 이하로 입력해 주세요.`,
});

/** A moment of the replay in milliseconds (the server checks it against the replay's length). */
export const OffsetMsSchema = z
  .number({ error: '시간(offset_ms)은 0 이상의 밀리초 정수로 보내 주세요.' })
  .int('시간(offset_ms)은 0 이상의 밀리초 정수로 보내 주세요.')
  .min(0, '시간(offset_ms)은 0 이상의 밀리초 정수로 보내 주세요.')
  .max(MAX_ID, '시간(offset_ms)이 너무 커요.');

/**
 * Body of `POST .../sessions/{sessionId}/chapters` (teacher): a mark at `offset_ms`, or without it (only while
 * the lecture is on) at the server's "now" of the lecture: the live room's '여기서 새 챕터'.
 */
export const ChapterCreateSchema = z.object({
  offset_ms: OffsetMsSchema.optional(),
  title: chapterTitle,
});
export type ChapterCreate = z.infer<typeof ChapterCreateSchema>;

/**
 * Body of `PATCH .../chapters/{chapterId}` (teacher): a new title and/or (a mark's only) a new time. A page
 * chapter's blank title goes back to the page's own; its time is the page change's.
 */
export const ChapterPatchSchema = z.object({
  offset_ms: OffsetMsSchema.optional(),
  title: z
    .string({ error: '챕터 이름은 문자열이어야 해요.' })
    .trim()
    .max(CHAPTER_TITLE_MAX, `챕터 이름은 ${CHAPTER_TITLE_MAX}자 이하로 입력해 주세요.`)
    .optional(),
});
export type ChapterPatch = z.infer<typeof ChapterPatchSchema>;

/** Path of one chapter. */
export const ChapterParamsSchema = SessionParamsSchema.extend({ chapterId: ChapterIdSchema });
