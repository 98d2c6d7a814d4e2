import { z } from 'zod';
import { StreamKindSchema } from './live.ts';

/**
 * A live session's raw recording, as the media service writes it and the replay job reads it: one folder per
 * session (`RECORDINGS_DIR/{sessionKey}/`, RECORDINGS_DIR defaulting to `DATA_DIR/recordings`) holding one
 * media file per continuous stretch of one stream, and this manifest. The manifest is JSON Lines, appended and
 * flushed event by event, so a crash of the media service leaves every event written before it.
 */
export const RECORDING_MANIFEST = 'manifest.jsonl';

/** Milliseconds since the session's `startedAt`, on the media service's monotonic clock. */
const Offset = z.number().int().min(0);
/** A file inside the session's folder: a plain name, never a path. */
const FileName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/);
/** A track's id inside its session (e.g. `webcamVideo-3`). */
const TrackId = z.string().min(1).max(100);

/** The codecs recorded (the SFU forwards VP8 video and Opus audio without transcoding). */
export const RECORDED_CODECS = ['vp8', 'opus'] as const;

/** One line of the manifest. */
export const RecordingEventSchema = z.discriminatedUnion('type', [
  /** The first line: whose lecture, and when it started (wall clock). */
  z.object({
    type: z.literal('session'),
    t: z.literal(0),
    sessionKey: z.string().min(1).max(100),
    classId: z.number().int().positive(),
    teacherNickname: z.string(),
    startedAt: z.iso.datetime({ offset: true }),
  }),
  /**
   * A stream's file starts: media time 0 inside `file` is at `t`. For video the file starts with a keyframe;
   * a gap inside a file (lost packets) keeps its real duration.
   */
  z.object({
    type: z.literal('track'),
    t: Offset,
    track: TrackId,
    kind: StreamKindSchema,
    file: FileName,
    codec: z.enum(RECORDED_CODECS),
  }),
  /** The stream's file ends (stream switched off, recording paused, or the session's end). */
  z.object({ type: z.literal('trackEnd'), t: Offset, track: TrackId }),
  /** The teacher paused recording: nothing is recorded until `resume`; a replay leaves the pause out. */
  z.object({ type: z.literal('pause'), t: Offset }),
  z.object({ type: z.literal('resume'), t: Offset }),
  /**
   * The recording's files could not be written from `t` (`reason`: the error's code, `ENOSPC` for a full
   * disk, `EIO`, `EROFS`, or `slow`): every file ended there, and nothing is recorded until `gapEnd`. Written
   * once the disk takes lines again, so it may be followed at once by its `gapEnd`; a manifest may also stop
   * inside a gap. Unlike a pause, a gap is a part of the lecture the replay is missing, and says so.
   */
  z.object({ type: z.literal('gap'), t: Offset, reason: z.string().min(1).max(40) }),
  /** The files can be written again: the streams start new files from `t` on (video at a keyframe). */
  z.object({ type: z.literal('gapEnd'), t: Offset }),
  /** The session ended normally. Absent after a crash: the files' own lengths tell where tracks end. */
  z.object({ type: z.literal('end'), t: Offset }),
]);
export type RecordingEvent = z.infer<typeof RecordingEventSchema>;
