import type { MediaProbe } from './composition-plan.ts';
import type { RecordingGap } from './recording-gaps.ts';
import type { RecordedPause, RecordedTrack, Recording } from './recording-manifest.ts';

/** The raw recording of one room of a session, read, with its files measured. */
export type RecordingPart = {
  /** The room's key: its folder in RECORDINGS_DIR, and the prefix of its files' names once joined. */
  key: string;
  /** When the room started, in ms after the session's first room started (the nodes' reports say). */
  offsetMs: number;
  recording: Recording;
  /** Its files' measures, by file name inside its folder (null: unreadable). */
  probes: ReadonlyMap<string, MediaProbe | null>;
};

/**
 * The recording of a whole session, as if one room had recorded it; file names are `{key}/{file}`. `gaps` are
 * the stretches between rooms (and before the first room's recording, when it is missing), in its pauses too.
 */
export type JoinedRecording = {
  recording: Recording;
  probes: Map<string, MediaProbe | null>;
  gaps: RecordingGap[];
};

/**
 * Joins the recordings of the rooms a session was held in, one after another (its origin node died and the
 * teacher took the class over on an edge), into one: each part's events move to where its room started on the
 * session's clock, never before the end of the part before it (two nodes' clocks may differ). Nothing was
 * recorded between two parts (the teacher was reconnecting), so that time is cut out of the replay like a pause,
 * and so is the start when the first room's recording is missing. A part without an `end` (its node died) ends
 * at its last media, as a crashed session does; a pause it left open ends with it. One part comes out as it is,
 * but for its files' names.
 */
export function joinParts(parts: readonly RecordingPart[]): JoinedRecording {
  const tracks: RecordedTrack[] = [];
  const pauses: RecordedPause[] = [];
  const stalls: RecordedPause[] = [];
  const probes = new Map<string, MediaProbe | null>();
  const gaps: RecordingGap[] = [];
  let reached = 0;
  let sessionEndMs: number | null = null;
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    const at = Math.max(part.offsetMs, reached);
    if (at > reached) {
      pauses.push({ startMs: reached, endMs: at });
      gaps.push({ fromMs: reached, untilMs: at });
    }
    const name = (file: string) => `${part.key}/${file}`;
    const partEnd = at + partEndMs(part);
    for (const track of part.recording.tracks) {
      // A file its room left open (the node died) ends with that room.
      const open = last ? null : partEnd;
      tracks.push({
        ...track,
        file: name(track.file),
        startMs: track.startMs + at,
        endMs: track.endMs === null ? open : track.endMs + at,
      });
    }
    for (const [file, probe] of part.probes) probes.set(name(file), probe);
    for (const stall of part.recording.stalls) {
      const startMs = stall.startMs + at;
      stalls.push({ startMs, endMs: stall.endMs === null ? Math.max(partEnd, startMs) : stall.endMs + at });
    }
    for (const pause of part.recording.pauses) {
      const startMs = pause.startMs + at;
      if (pause.endMs !== null) pauses.push({ startMs, endMs: pause.endMs + at });
      else pauses.push({ startMs, endMs: last ? null : Math.max(partEnd, startMs) });
    }
    reached = Math.max(reached, partEnd);
    sessionEndMs = last && part.recording.endMs !== null ? part.recording.endMs + at : null;
  });
  const first = parts[0]?.recording;
  return {
    recording: {
      teacherNickname: first?.teacherNickname ?? '',
      startedAt: first?.startedAt ?? '',
      tracks,
      pauses,
      stalls,
      endMs: sessionEndMs,
      skippedLines: parts.reduce((sum, part) => sum + part.recording.skippedLines, 0),
    },
    probes,
    gaps,
  };
}

/** Where a part ends on its own clock: its `end`, or after a crash its last media (0 without any). */
function partEndMs({ recording, probes }: RecordingPart): number {
  if (recording.endMs !== null) return recording.endMs;
  let end = 0;
  for (const track of recording.tracks) {
    const probe = probes.get(track.file);
    if (!probe) continue;
    const ownEnd = track.startMs + Math.max(0, probe.endMs);
    end = Math.max(end, track.endMs === null ? ownEnd : Math.min(track.endMs, ownEnd));
  }
  return end;
}
