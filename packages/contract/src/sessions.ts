import { z } from 'zod';

/**
 * Where a session's recording stands: `none` (not recorded: the teacher chose not to, or nothing was
 * published), `recording` (the lecture is on), `processing` (the replay job runs or waits), `ready` (the
 * replay plays), `failed` (processing gave up; `error` says why).
 */
export const RECORDING_STATES = ['none', 'recording', 'processing', 'ready', 'failed'] as const;
export type RecordingState = (typeof RECORDING_STATES)[number];

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
});
export type SessionRecording = z.infer<typeof SessionRecordingSchema>;

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
