import { z } from 'zod';
import {
  CLASS_SORTS,
  distinctWords,
  SEARCH_QUERY_MAX,
  SEARCH_WORDS_MAX,
  SEARCH_WORDS_MESSAGE,
  searchWords,
} from './search.ts';
import type { Envelope } from './envelope.ts';
import { id, idText } from './ids.ts';
import { hasControlCharacter, optionalText, requiredText, TEXT_MESSAGES } from './text.ts';

/** Lists answer this many classes per page (the original API spec section 3). */
export const CLASS_PAGE_SIZE = 12;

/** The top-ten list holds this many classes. */
export const TOP_TEN_SIZE = 10;

/** Title length after trimming. */
export const CLASS_NAME_MIN = 2;
export const CLASS_NAME_MAX = 24;

/** Validation messages of the class forms (product-spec section 5), shared by the forms and the server. */
export const CLASS_MESSAGES = {
  categoryRequired: '카테고리를 선택해 주세요.',
  nameRequired: '강의 제목을 입력해 주세요.',
  nameLength: `제목은 ${CLASS_NAME_MIN}자 이상 ${CLASS_NAME_MAX}자 이하로 입력해 주세요.`,
  objectRequired: '강의 목표를 입력해 주세요.',
  descriptionRequired: '강의 설명을 입력해 주세요.',
} as const;

const categoryId = id(CLASS_MESSAGES.categoryRequired);

const name = requiredText(CLASS_MESSAGES.nameRequired, {
  min: CLASS_NAME_MIN,
  max: CLASS_NAME_MAX,
  lengthMessage: CLASS_MESSAGES.nameLength,
  multiline: false,
});

/** The `classroomCreateDto` part of `POST /api/classes` (camelCase, as clients send it). */
export const ClassCreateSchema = z.object({
  categoryId,
  name,
  object: requiredText(CLASS_MESSAGES.objectRequired),
  description: requiredText(CLASS_MESSAGES.descriptionRequired),
  instructorInfo: optionalText().optional(),
  prerequisite: optionalText().optional(),
  announcement: optionalText().optional(),
});
export type ClassCreate = z.input<typeof ClassCreateSchema>;

/**
 * The `classroomUpdateDto` part of `PATCH /api/classes/{id}`: an absent field is kept, `null` clears an
 * optional one; required fields cannot be cleared.
 */
export const ClassUpdateSchema = ClassCreateSchema.partial();
export type ClassUpdate = z.input<typeof ClassUpdateSchema>;

/** One class as every response shows it (snake_case). */
export const ClassItemSchema = z.object({
  id: z.number().int(),
  user_id: z.string(),
  instructor: z.string(),
  category_id: z.number().int(),
  category: z.string(),
  name: z.string(),
  object: z.string(),
  description: z.string(),
  instructor_info: z.string().nullable(),
  prerequisite: z.string().nullable(),
  announcement: z.string().nullable(),
  banner_image_path: z.string().nullable(),
  is_active: z.boolean(),
  student_count: z.number().int(),
  /** Mean of the review stars (1-5), null while the class has no review. */
  rating_average: z.number().nullable(),
  review_count: z.number().int(),
  /**
   * When the class's next scheduled session starts (ISO-8601, UTC): the earliest schedule entry that has not
   * ended yet, schedule dates and times being Asia/Seoul wall-clock time; null without one. A client decides
   * from it whether the session is today (in Asia/Seoul) and shows when ('오늘 오후 8시 라이브').
   */
  next_session_at: z.string().nullable().meta({
    description:
      'Start of the earliest schedule entry not yet ended (schedule times are Asia/Seoul), ISO-8601 UTC; null without one.',
  }),
  /** How many replays of the class its students can watch (processed and not hidden by the teacher). */
  replay_count: z.number().int().meta({
    description: 'Replays students can watch: sessions whose recording is ready and not hidden.',
  }),
  /**
   * While the class is live: when its live session started (ISO-8601, UTC; a lecture continued after a lost
   * connection keeps its first start). Null when it is not live.
   */
  live_started_at: z.string().nullable().meta({
    description: 'While live: start of the open live session, ISO-8601 UTC; null when not live.',
  }),
  /** While the class is live: how many students are in its room now (as media nodes report). Null when not. */
  live_viewer_count: z.number().int().nullable().meta({
    description:
      'While live: students in the room now, as the media nodes last reported; null when not live.',
  }),
  /**
   * True while the class's lecture waits for its teacher: the media node holding it stopped or died, and its
   * open session is kept (up to 20 s) for the teacher's room on a node. `is_active` is false meanwhile; the
   * live list (`target=live`) still lists the class, as waiting rather than live.
   */
  live_waiting: z.boolean().meta({
    description:
      'The lecture waits for its teacher after its media node was lost (is_active false meanwhile; listed in target=live).',
  }),
});
export type ClassItem = z.infer<typeof ClassItemSchema>;

/** `target` values of `GET /api/classes`. */
export const CLASS_TARGETS = ['live', 'enrolled', 'created', 'topten'] as const;
export type ClassTarget = (typeof CLASS_TARGETS)[number];

export {
  CLASS_SORTS,
  SEARCH_MATCHES_MAX,
  SEARCH_QUERY_MAX,
  SEARCH_WORDS_MAX,
  searchWords,
  type ClassSort,
} from './search.ts';

/**
 * A search query (`q` of `GET /api/classes` and of the suggestions): at most SEARCH_QUERY_MAX characters and
 * SEARCH_WORDS_MAX distinct words, no control character; trimmed, and blank read as none (undefined).
 */
export const SearchQuerySchema = z
  .string()
  .max(SEARCH_QUERY_MAX, `검색어는 ${SEARCH_QUERY_MAX}자 이하로 입력해 주세요.`)
  // PostgreSQL text holds no NUL: refused here, as every other text field does, not a 500 from the database.
  .refine((query) => !hasControlCharacter(query, true), TEXT_MESSAGES.control)
  .refine((query) => distinctWords(query).length <= SEARCH_WORDS_MAX, SEARCH_WORDS_MESSAGE)
  .transform((query) => (searchWords(query).length === 0 ? undefined : query.trim()));

/** Query of `GET /api/classes`. `q` searches (blank means no search); `sort` orders. */
export const ClassListQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  category: idText('카테고리 번호가 올바르지 않아요.').optional(),
  target: z.enum(CLASS_TARGETS).optional(),
  q: SearchQuerySchema.optional(),
  sort: z.enum(CLASS_SORTS, { error: '정렬 기준이 올바르지 않아요.' }).optional(),
});
export type ClassListQuery = z.infer<typeof ClassListQuerySchema>;

/**
 * The answer of `GET /api/classes`: one page in `data` and, beside it, `total`, how many classes the whole
 * list holds (the same on every page; for `topten`, the classes answered). Clients that only read `data`
 * are unaffected.
 */
export type ClassListEnvelope = Envelope<ClassItem[]> & { total: number };

/** Path parameter of every `/api/classes/{classId}/...` route. */
export const ClassIdParamsSchema = z.object({ classId: idText('강의 번호가 올바르지 않아요.') });

/** A user's relation to a class, as `GET /api/classes/{id}/role` answers it. */
export const CLASS_ROLES = { teacher: '강사', student: '수강생', none: '관계없음' } as const;
export type ClassRole = (typeof CLASS_ROLES)[keyof typeof CLASS_ROLES];

/**
 * One of the caller's live classes as `GET /api/users/live-classes` answers it: the class and the caller's
 * role there (the teacher enters the teacher's room, a student the students').
 */
export const MyLiveClassSchema = z.object({
  id: z.number().int(),
  role: z.enum([CLASS_ROLES.teacher, CLASS_ROLES.student]),
});
export type MyLiveClass = z.infer<typeof MyLiveClassSchema>;

/** Body of `PATCH /api/classes/{id}/isActive`; an empty body toggles. */
export const LiveStateSchema = z.object({ active: z.boolean() });
export type LiveState = z.infer<typeof LiveStateSchema>;

/** A student of a class as the teacher's student list shows them; `created_at` is the enrolment time. */
export const ClassStudentSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  nickname: z.string(),
  profile_image_path: z.string().nullable(),
  created_at: z.string(),
});
export type ClassStudent = z.infer<typeof ClassStudentSchema>;
