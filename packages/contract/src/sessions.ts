import { z } from 'zod';
import { PollSchema, QuestionSchema } from './classroom.ts';
import { idText } from './ids.ts';
import { optionalText } from './text.ts';

/**
 * Where a session's recording stands: `none` (not recorded: the teacher chose not to, or nothing was
 * published), `recording` (the lecture is on), `processing` (the replay job runs or waits), `ready` (the
 * replay plays), `failed` (processing gave up; `error` says why).
 */
export const RECORDING_STATES = ['none', 'recording', 'processing', 'ready', 'failed'] as const;
export type RecordingState = (typeof RECORDING_STATES)[number];

/**
 * A stretch of the lecture that was not recorded although the lecture went on (the recordings disk was full,
 * the teacher reconnected): seconds from the session's start. The replay leaves it out (its chat is kept, at
 * the point where the stretch was cut) and says so.
 */
export const RecordingGapSchema = z.object({
  from_s: z.number().int().min(0),
  until_s: z.number().int().min(0),
  /**
   * Where the replay cuts the stretch, in seconds on the replay's own clock (the teacher's pauses and the
   * earlier gaps cut out as well): the point the player marks on its seek bar.
   */
  at_s: z.number().min(0),
});
export type RecordingGap = z.infer<typeof RecordingGapSchema>;

/** The recording part of a session item. URLs only when `ready`; they are short-lived signed URLs. */
export const SessionRecordingSchema = z.object({
  state: z.enum(RECORDING_STATES),
  /** 0-100 while processing; 100 when ready. */
  progress: z.number().int().min(0).max(100),
  /** The teacher's title for the replay, or null (the web app then shows the date). */
  title: z.string().nullable(),
  /** Hidden replays are listed only to the teacher. */
  hidden: z.boolean(),
  hls_url: z.string().nullable(),
  mp4_url: z.string().nullable(),
  /**
   * Why the recording is not (yet) a replay, in Korean, or null: while `processing`, what it waits for (no
   * ffmpeg, the disk full, a hung encoder: it is retried by itself); when `failed`, why it gave up.
   */
  error: z.string().nullable(),
  /** The stretches the ready replay is missing, in order; empty when it has all of the lecture (or not ready). */
  gaps: z.array(RecordingGapSchema),
});
export type SessionRecording = z.infer<typeof SessionRecordingSchema>;

/**
 * The download link of a replay: its `mp4_url` with `download=1`, answered as an attachment named after the
 * replay's title and date (Korean kept, RFC 5987). The plain `mp4_url` plays inline (Range requests).
 */
export function replayDownloadUrl(mp4Url: string): string {
  return `${mp4Url}${mp4Url.includes('?') ? '&' : '?'}download=1`;
}

/** One live session of a class: from the teacher's `startRoom` to the end of the lecture. */
export const SessionItemSchema = z.object({
  id: z.number().int(),
  class_id: z.number().int(),
  started_at: z.string(),
  /** Null while the lecture is on. */
  ended_at: z.string().nullable(),
  /** Seconds from start to end (or to now while live). */
  duration_s: z.number().int().min(0),
  recording: SessionRecordingSchema,
});
export type SessionItem = z.infer<typeof SessionItemSchema>;

/** `GET /api/classes/{classId}/sessions/{sessionId}`: the item and where the caller left off in the replay. */
export const SessionDetailSchema = SessionItemSchema.extend({
  /** Seconds into the replay where the caller stopped watching; 0 if never watched. */
  resume_s: z.number().min(0),
});
export type SessionDetail = z.infer<typeof SessionDetailSchema>;

/** Longest replay title, in characters. */
export const SESSION_TITLE_MAX = 100;

/** Body of `PATCH /api/classes/{classId}/sessions/{sessionId}` (teacher): a blank title becomes null. */
export const SessionPatchSchema = z.object({
  title: optionalText({ max: SESSION_TITLE_MAX, multiline: false }).optional(),
  hidden: z.boolean().optional(),
});
export type SessionPatch = z.infer<typeof SessionPatchSchema>;

/** One message of `GET /api/classes/{classId}/sessions/{sessionId}/chat`, in time order. */
export const SessionChatMessageSchema = z.object({
  id: z.number().int(),
  user_id: z.string().nullable(),
  nickname: z.string().nullable(),
  profile_image_path: z.string().nullable(),
  role: z.enum(['teacher', 'student']),
  content: z.string(),
  created_at: z.string(),
  /**
   * Milliseconds from the session's start, on the replay's clock: when the teacher paused recording, the
   * paused stretch is cut out of the replay and so out of this offset (a message sent during a pause sits
   * where the pause was cut). Without pauses (or before the replay is ready) simply the time since the start.
   */
  offset_ms: z.number().int().min(0),
});
export type SessionChatMessage = z.infer<typeof SessionChatMessageSchema>;

/** Milliseconds from the session's start on the replay's clock, as a chat message's `offset_ms`. */
const replayOffset = z.number().int().min(0);

/** A question of the session, as the live room's list shows it to the reader, at the moment it was asked. */
export const SessionQuestionSchema = QuestionSchema.extend({ offset_ms: replayOffset });
export type SessionQuestion = z.infer<typeof SessionQuestionSchema>;

/**
 * A poll or quiz of the session, as the live room shows it to the reader once it is closed (results and a
 * quiz's answer for the teacher, for students only when the teacher revealed them), at the moment it opened.
 */
export const SessionPollSchema = PollSchema.extend({ offset_ms: replayOffset });
export type SessionPoll = z.infer<typeof SessionPollSchema>;

/**
 * `GET /api/classes/{classId}/sessions/{sessionId}/classroom`: the session's questions and polls for the
 * replay's chat pane, each in time order, with offsets on the replay's clock as the chat's.
 */
export const SessionClassroomSchema = z.object({
  questions: z.array(SessionQuestionSchema),
  polls: z.array(SessionPollSchema),
});
export type SessionClassroom = z.infer<typeof SessionClassroomSchema>;

/** How often the player sends a watch beat while the replay is open, in milliseconds. */
export const WATCH_BEAT_MS = 5_000;
/** The most one beat credits, in seconds: a little more than the beat interval. */
export const WATCH_CREDIT_MAX_S = 6;

/** The fastest playback the player offers: one beat may cover this many seconds of video per second. */
export const WATCH_MAX_RATE = 2;

/**
 * Body of `POST /api/classes/{classId}/sessions/{sessionId}/watch`, sent every {@link WATCH_BEAT_MS} while the
 * replay is open and on pause, seek and close. The server credits the stretch `[from_s, position_s]` of the
 * video (each second once) when `playing` is true and the tab played since its last beat: at most
 * `min(now - the member's last beat, 6 s)` of wall clock, times {@link WATCH_MAX_RATE}. A jump (a seek) credits
 * that wall-clock time from `from_s` on. Without `from_s` (older players) the member's last beat's position
 * stands in, and only when that beat said `playing`. `position_s` becomes the resume point; neither may pass
 * the replay's end.
 */
export const WatchBeatSchema = z.object({
  position_s: z.number().min(0).max(86_400),
  playing: z.boolean(),
  /** Where this tab's player was at its own previous beat, sent only when it has played since then. */
  from_s: z.number().min(0).max(86_400).optional(),
});
export type WatchBeat = z.infer<typeof WatchBeatSchema>;

/**
 * Answer of the watch route: how many seconds of the replay the caller has played (each second once) and the
 * saved position.
 */
export const WatchStateSchema = z.object({
  watched_s: z.number().min(0),
  position_s: z.number().min(0),
});
export type WatchState = z.infer<typeof WatchStateSchema>;

/** Path parameters of the routes of one session. */
export const SessionParamsSchema = z.object({
  classId: idText('강의 번호가 올바르지 않아요.'),
  sessionId: idText('세션 번호가 올바르지 않아요.'),
});
export type SessionParams = z.infer<typeof SessionParamsSchema>;
