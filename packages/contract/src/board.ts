import { z } from 'zod';
import { CHAPTER_TITLE_MAX, ChapterIdSchema } from './chapters.ts';
import { id, idText } from './ids.ts';
import { optionalText } from './text.ts';

// The board of a live room: the page on stage (a page of a material, or a blank whiteboard page) and the ink
// (판서) written on pages, over the chat's STOMP endpoint. Every SEND below carries the class id as `roomId`;
// only the teacher, and the one student the teacher invited to write, may send (else `teacher-only`), and only
// while the class is live (else `not-live`). Ink belongs to a session and a page: a new session starts with
// clean pages. A refusal is a MESSAGE on `/user/queue/errors` (chat.ts) with `teacher-only`, `not-live`,
// `bad-request` (a body outside these limits, a page the material does not have) or `rate-limited`.

/** The class's board news ({@link BoardEvent}), for its members only. */
export const BOARD_TOPIC_PREFIX = '/topic/board/';

/** The topic of a class's board. */
export function boardTopic(classId: number): string {
  return `${BOARD_TOPIC_PREFIX}${classId}`;
}

/** Teacher: the page on stage; `materialId: null` leaves the stage (back to the screen share). */
export const BOARD_PAGE_DESTINATION = '/app/board/page';
/** Teacher or the invited writer: a piece of a stroke, streamed while it is drawn. Body {@link BoardInkSchema}. */
export const BOARD_INK_DESTINATION = '/app/board/ink';
/** Teacher or the invited writer: removes whole strokes of a page (the eraser). Body {@link BoardEraseSchema}. */
export const BOARD_ERASE_DESTINATION = '/app/board/erase';
/** Teacher or the invited writer: removes every stroke of a page. Body {@link BoardClearSchema}. */
export const BOARD_CLEAR_DESTINATION = '/app/board/clear';
/** Teacher or the invited writer: the laser pointer, never stored. Body {@link BoardPointerSchema}. */
export const BOARD_POINTER_DESTINATION = '/app/board/pointer';
/**
 * Teacher: lets one student write on the board (`userId`), or nobody but the teacher (`null`). The student must
 * have raised their hand (`/app/hands`, classroom.ts); inviting another replaces the previous writer. The
 * invitation ends with the session. Body {@link BoardWriterSchema}.
 */
export const BOARD_WRITER_DESTINATION = '/app/board/writer';

/**
 * The whiteboard: `materialId` 0 names the class's blank pages (1 to {@link MAX_WHITEBOARD_PAGES}); the teacher
 * adds one by putting the page after the last on stage. Any other id is a ready material of the class.
 */
export const WHITEBOARD_ID = 0;
export const MAX_WHITEBOARD_PAGES = 50;

/**
 * The tools of the board. `eraser` removes whole strokes through {@link BOARD_ERASE_DESTINATION} and is never a
 * stroke's tool. `line`, `rect`, `ellipse` and `arrow` are drawn from the stroke's first point to its last;
 * `text` is one point (the text's top left) with `text`, its font size being `width`.
 */
export const BOARD_TOOLS = [
  'pen',
  'highlighter',
  'line',
  'rect',
  'ellipse',
  'arrow',
  'text',
  'eraser',
] as const;
export type BoardTool = (typeof BOARD_TOOLS)[number];
export const INK_TOOLS = ['pen', 'highlighter', 'line', 'rect', 'ellipse', 'arrow', 'text'] as const;
export type InkTool = (typeof INK_TOOLS)[number];

/** Most points in one piece of a stroke (a client sends what was drawn about every 50 ms, not each point). */
export const MAX_POINTS_PER_PIECE = 200;
/** Most points in one stroke, all pieces together; a longer stroke is refused (`bad-request`) from that piece. */
export const MAX_POINTS_PER_STROKE = 4_000;
/** Most strokes on one page in one session (after that, erase or clear first). */
export const MAX_STROKES_PER_PAGE = 2_000;
/** Longest text of the `text` tool, in characters. */
export const MAX_INK_TEXT_LENGTH = 500;
/** A stroke's width (its font size for `text`), as a fraction of the page's width. */
export const MIN_INK_WIDTH = 0.0005;
export const MAX_INK_WIDTH = 0.1;
/** Most strokes one erase names. */
export const MAX_ERASE_STROKES = 500;
/**
 * The board's own write budget per writer, SENDs a second (ink pieces, pointer moves, erases), apart from the
 * chat's: a client sends ink at most every 16 ms and the pointer at most every 50 ms.
 */
export const BOARD_SENDS_PER_SECOND = 60;
/** Coordinates and pressures are kept to this many decimals (1/10 000 of the page). */
export const INK_DECIMALS = 4;

/** A colour: `#rrggbb`, lower or upper case. The highlighter's translucency is the tool's, not the colour's. */
export const InkColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/);
/** A client-made stroke id, unique in its page (e.g. a short random string). */
export const StrokeIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/);
/** A point: x and y in page coordinates (0..1 from the top left, of the page's width and height), pressure 0..1. */
export const InkPointSchema = z.tuple([
  z.number().min(0).max(1),
  z.number().min(0).max(1),
  z.number().min(0).max(1),
]);
export type InkPoint = z.infer<typeof InkPointSchema>;

const materialId = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);
const page = z.number().int().min(1).max(1_000);

/**
 * How the page on stage shares the stage with the screen share: `board` instead of it, `side` beside it (the
 * webcam stays a corner picture in both). Students see the teacher's choice.
 */
export const BOARD_LAYOUTS = ['board', 'side'] as const;
export const BoardLayoutSchema = z.enum(BOARD_LAYOUTS);
export type BoardLayout = z.infer<typeof BoardLayoutSchema>;

/**
 * Body of {@link BOARD_PAGE_DESTINATION}: `page` is null exactly when `materialId` is; `layout` changes the
 * stage's layout (absent: the current one stays).
 */
export const BoardPageSchema = z
  .object({
    roomId: idText(),
    materialId: materialId.nullable(),
    page: page.nullable(),
    layout: BoardLayoutSchema.optional(),
  })
  .refine((body) => (body.materialId === null) === (body.page === null));
export type BoardPage = z.infer<typeof BoardPageSchema>;

/** A page of the board: a material's, or a whiteboard page ({@link WHITEBOARD_ID}). */
const pageOf = { roomId: idText(), materialId, page };

/**
 * Body of {@link BOARD_INK_DESTINATION}: one piece of a stroke. The first piece names the stroke's look (`tool`,
 * `color`, `width`, `text`); later pieces repeat it and only add points; `done: true` on the last. A piece of a
 * stroke that was already done, or that would pass {@link MAX_POINTS_PER_STROKE}, is refused.
 */
export const BoardInkSchema = z.object({
  ...pageOf,
  strokeId: StrokeIdSchema,
  tool: z.enum(INK_TOOLS),
  color: InkColorSchema,
  width: z.number().min(MIN_INK_WIDTH).max(MAX_INK_WIDTH),
  points: z.array(InkPointSchema).max(MAX_POINTS_PER_PIECE),
  /** Only for the `text` tool (required there, non-blank). */
  text: optionalText({ max: MAX_INK_TEXT_LENGTH }).optional(),
  done: z.boolean(),
});
export type BoardInk = z.infer<typeof BoardInkSchema>;

export const BoardEraseSchema = z.object({
  ...pageOf,
  strokeIds: z.array(StrokeIdSchema).min(1).max(MAX_ERASE_STROKES),
});
export type BoardErase = z.infer<typeof BoardEraseSchema>;

export const BoardClearSchema = z.object(pageOf);
export type BoardClear = z.infer<typeof BoardClearSchema>;

/** Body of {@link BOARD_POINTER_DESTINATION}: the pointer on the page on stage; `x` and `y` null hide it. */
export const BoardPointerSchema = z.object({
  roomId: idText(),
  x: z.number().min(0).max(1).nullable(),
  y: z.number().min(0).max(1).nullable(),
});
export type BoardPointer = z.infer<typeof BoardPointerSchema>;

export const BoardWriterSchema = z.object({
  roomId: idText(),
  userId: z.string().min(1).max(200).nullable(),
});
export type BoardWriter = z.infer<typeof BoardWriterSchema>;

/**
 * The page on stage, or none (`materialId` and `page` null); `blankPages`: how many whiteboard pages exist;
 * `layout`: the page instead of the screen share or beside it.
 */
export const BoardStageSchema = z.object({
  materialId: z.number().int().nullable(),
  page: z.number().int().nullable(),
  blankPages: z.number().int().min(0),
  layout: BoardLayoutSchema,
});
export type BoardStage = z.infer<typeof BoardStageSchema>;

/** The student who may write besides the teacher, or null. */
export const BoardWriterStateSchema = z
  .object({ userId: z.string(), nickname: z.string().nullable() })
  .nullable();
export type BoardWriterState = z.infer<typeof BoardWriterStateSchema>;

/**
 * What `/topic/board/{classId}` carries. `by` is the writer's user id. Ink arrives piece by piece as it is
 * drawn: a reader appends a piece's points to the stroke `strokeId` of that page (creating it on its first
 * piece; its look is the piece's). A late joiner reads `GET /api/classes/{classId}/board` first, then applies the
 * events that follow (a stroke's piece it already holds is found by `strokeId` and the point count `from`).
 */
export const BoardEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('stage'), roomId: z.number().int(), stage: BoardStageSchema }),
  z.object({
    type: z.literal('ink'),
    roomId: z.number().int(),
    materialId: z.number().int(),
    page: z.number().int(),
    strokeId: z.string(),
    tool: z.enum(INK_TOOLS),
    color: z.string(),
    width: z.number(),
    text: z.string().nullable(),
    /** How many points of the stroke came before this piece's first. */
    from: z.number().int().min(0),
    points: z.array(InkPointSchema),
    done: z.boolean(),
    by: z.string(),
  }),
  z.object({
    type: z.literal('erase'),
    roomId: z.number().int(),
    materialId: z.number().int(),
    page: z.number().int(),
    strokeIds: z.array(z.string()),
    by: z.string(),
  }),
  z.object({
    type: z.literal('clear'),
    roomId: z.number().int(),
    materialId: z.number().int(),
    page: z.number().int(),
    by: z.string(),
  }),
  z.object({
    type: z.literal('pointer'),
    roomId: z.number().int(),
    x: z.number().nullable(),
    y: z.number().nullable(),
    by: z.string(),
  }),
  z.object({ type: z.literal('writer'), roomId: z.number().int(), writer: BoardWriterStateSchema }),
]);
export type BoardEvent = z.infer<typeof BoardEventSchema>;

/** A stored stroke, as the board routes answer it (snake_case, as every HTTP answer). */
export const StrokeSchema = z.object({
  material_id: z.number().int(),
  page: z.number().int(),
  stroke_id: z.string(),
  tool: z.enum(INK_TOOLS),
  color: z.string(),
  width: z.number(),
  text: z.string().nullable(),
  points: z.array(InkPointSchema),
  /** False while the stroke is being drawn. */
  done: z.boolean(),
  by: z.string(),
});
export type Stroke = z.infer<typeof StrokeSchema>;

/**
 * `GET /api/classes/{classId}/board`, for members: the board of the live session (`live` true) or else of the
 * last one (`session_id` null when the class never went live): the stage, the invited writer and every stroke
 * not erased, oldest first.
 */
export const BoardSnapshotSchema = z.object({
  session_id: z.number().int().nullable(),
  live: z.boolean(),
  stage: z.object({
    material_id: z.number().int().nullable(),
    page: z.number().int().nullable(),
    blank_pages: z.number().int().min(0),
    layout: BoardLayoutSchema,
  }),
  writer: z.object({ user_id: z.string(), nickname: z.string().nullable() }).nullable(),
  strokes: z.array(StrokeSchema),
});
export type BoardSnapshot = z.infer<typeof BoardSnapshotSchema>;

/**
 * `GET /api/classes/{classId}/sessions/{sessionId}/board`, for members: the session's board on the replay's
 * clock (milliseconds from the start, paused stretches cut out as for the chat's `offset_ms`). `stages`: every
 * page change, in time order, with the layout it was shown in (`material_id` null: the stage was left). `strokes`: every stroke, erased ones
 * too: shown from `offset_ms` (its first piece), drawn progressively until `end_offset_ms` (its last piece),
 * gone from `erased_offset_ms` (erased or cleared; null: never).
 */
export const SessionBoardSchema = z.object({
  session_id: z.number().int(),
  stages: z.array(
    z.object({
      offset_ms: z.number().int().min(0),
      material_id: z.number().int().nullable(),
      page: z.number().int().nullable(),
      /** The stage's layout from this change on (`board` for changes made before layouts were kept). */
      layout: BoardLayoutSchema,
    }),
  ),
  strokes: z.array(
    StrokeSchema.extend({
      offset_ms: z.number().int().min(0),
      end_offset_ms: z.number().int().min(0),
      erased_offset_ms: z.number().int().min(0).nullable(),
    }),
  ),
});
export type SessionBoard = z.infer<typeof SessionBoardSchema>;

/** A page stayed on at least this long becomes a chapter of the replay. */
export const CHAPTER_MIN_MS = 10_000;
/**
 * Body of `PATCH /api/classes/{classId}/sessions/{sessionId}/chapters` (teacher): new titles by chapter id
 * (chapters.ts; a bare number is a page change's id, as before marks joined the list); a blank title goes back
 * to the page's own (a mark keeps its title). Answers the whole list as `GET` does.
 */
export const ChaptersPatchSchema = z.object({
  chapters: z
    .array(
      z.object({
        id: z.union([id('챕터 번호가 올바르지 않아요.'), ChapterIdSchema]),
        title: optionalText({ max: CHAPTER_TITLE_MAX, multiline: false }),
      }),
    )
    .min(1)
    .max(300),
});
export type ChaptersPatch = z.infer<typeof ChaptersPatchSchema>;
