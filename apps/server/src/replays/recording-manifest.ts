import { type RecordingEvent, RecordingEventSchema } from '@sea/contract/recording';
import type { StreamKind } from '@sea/contract/live';

/** One media file of the recording: one continuous stretch of one stream. */
export type RecordedTrack = {
  track: string;
  kind: StreamKind;
  file: string;
  /** Session time (ms) of the file's media time 0. */
  startMs: number;
  /** Session time of its `trackEnd`, or null (the media service stopped before writing one). */
  endMs: number | null;
};

/** A stretch the teacher paused recording; `endMs` null: still paused when the manifest stops. */
export type RecordedPause = { startMs: number; endMs: number | null };

/** What a manifest says, read leniently: a crash may leave the last line cut off. */
export type Recording = {
  teacherNickname: string;
  startedAt: string;
  tracks: RecordedTrack[];
  pauses: RecordedPause[];
  /**
   * Stretches the media service could not write (`gap` to `gapEnd`, a full or broken disk); `endMs` null: the
   * manifest stops inside one. The lecture went on: the replay is missing them and says so.
   */
  stalls: RecordedPause[];
  /** Session time of `end`, or null after a crash. */
  endMs: number | null;
  /** Lines that were not events (a line cut off by a crash, or garbage); reported, never fatal. */
  skippedLines: number;
};

/** The manifest has no `session` line: it is not a recording at all. */
export class ManifestError extends Error {}

/** Reads a manifest (JSON Lines) into tracks, pauses and the end. */
export function parseManifest(text: string): Recording {
  const events: RecordingEvent[] = [];
  let skippedLines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const event = parseLine(line);
    if (event) events.push(event);
    else skippedLines += 1;
  }
  const session = events.find((event) => event.type === 'session');
  if (!session) throw new ManifestError('the manifest has no session line');

  const tracks: RecordedTrack[] = [];
  const open = new Map<string, RecordedTrack>();
  const pauses: RecordedPause[] = [];
  const stalls: RecordedPause[] = [];
  let endMs: number | null = null;
  for (const event of events) {
    if (endMs !== null) break;
    switch (event.type) {
      case 'track': {
        // A track id seen again while open: the earlier file ended where this one starts.
        const earlier = open.get(event.track);
        if (earlier) earlier.endMs = event.t;
        const track = {
          track: event.track,
          kind: event.kind,
          file: event.file,
          startMs: event.t,
          endMs: null,
        };
        open.set(event.track, track);
        tracks.push(track);
        break;
      }
      case 'trackEnd': {
        const track = open.get(event.track);
        if (track) track.endMs = Math.max(event.t, track.startMs);
        open.delete(event.track);
        break;
      }
      case 'pause': {
        const last = pauses.at(-1);
        if (!last || last.endMs !== null) pauses.push({ startMs: event.t, endMs: null });
        break;
      }
      case 'resume': {
        const last = pauses.at(-1);
        if (last && last.endMs === null) last.endMs = Math.max(event.t, last.startMs);
        break;
      }
      case 'gap': {
        const last = stalls.at(-1);
        if (!last || last.endMs !== null) stalls.push({ startMs: event.t, endMs: null });
        break;
      }
      case 'gapEnd': {
        const last = stalls.at(-1);
        if (last && last.endMs === null) last.endMs = Math.max(event.t, last.startMs);
        break;
      }
      case 'end':
        endMs = event.t;
        break;
      case 'session':
        break;
    }
  }
  return {
    teacherNickname: session.teacherNickname,
    startedAt: session.startedAt,
    tracks,
    pauses,
    stalls,
    endMs,
    skippedLines,
  };
}

function parseLine(line: string): RecordingEvent | null {
  try {
    const parsed = RecordingEventSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    // A line cut off by a crash: skipped and counted.
    return null;
  }
}
