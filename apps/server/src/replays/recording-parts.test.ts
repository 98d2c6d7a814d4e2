import { describe, expect, it } from 'vitest';
import type { MediaProbe } from './composition-plan.ts';
import { planComposition } from './composition-plan.ts';
import type { RecordedPause, Recording } from './recording-manifest.ts';
import { joinParts, type RecordingPart } from './recording-parts.ts';

/**
 * A part: a webcam from `startMs` whose file holds `fileMs` (its trackEnd at `trackEndMs`, null after a crash),
 * the part's `end` (null after a crash) and its pauses.
 */
function part(
  key: string,
  offsetMs: number,
  webcam: { startMs: number; fileMs: number; trackEndMs: number | null },
  endMs: number | null,
  pauses: RecordedPause[] = [],
): RecordingPart {
  const recording: Recording = {
    teacherNickname: '파도선생',
    startedAt: new Date(Date.UTC(2026, 10, 25) + offsetMs).toISOString(),
    tracks: [
      {
        track: 'webcamVideo-1',
        kind: 'webcamVideo',
        file: 'webcamVideo-1.webm',
        ...webcam,
        endMs: webcam.trackEndMs,
      },
    ],
    pauses,
    stalls: [],
    endMs,
    skippedLines: 1,
  };
  const probe: MediaProbe = { endMs: webcam.fileMs, width: 640, height: 360 };
  return { key, offsetMs, recording, probes: new Map([['webcamVideo-1.webm', probe]]) };
}

const crashed = (key: string, offsetMs: number, fileMs: number, pauses: RecordedPause[] = []) =>
  part(key, offsetMs, { startMs: 0, fileMs, trackEndMs: null }, null, pauses);
const clean = (key: string, offsetMs: number, lengthMs: number) =>
  part(key, offsetMs, { startMs: 500, fileMs: lengthMs - 500, trackEndMs: lengthMs }, lengthMs);

describe('joinParts', () => {
  it('one part comes out as it is, but for its files named inside their folder', () => {
    const one = clean('a', 0, 4_000);
    const { recording, probes } = joinParts([one]);
    expect(recording).toEqual({
      ...one.recording,
      tracks: [{ ...one.recording.tracks[0], file: 'a/webcamVideo-1.webm' }],
    });
    expect([...probes.keys()]).toEqual(['a/webcamVideo-1.webm']);
  });

  it.each([
    {
      what: 'a crashed origin, then the room taken over 2 s after its last media: the 2 s are cut',
      parts: [crashed('a', 0, 5_000), clean('b', 7_000, 4_000)],
      starts: [0, 7_500],
      pauses: [{ startMs: 5_000, endMs: 7_000 }],
      endMs: 11_000,
      durationMs: 9_000,
    },
    {
      what: 'clocks apart: the second room seems to start before the first ended, so it follows it',
      parts: [crashed('a', 0, 5_000), clean('b', 3_000, 4_000)],
      starts: [0, 5_500],
      pauses: [],
      endMs: 9_000,
      durationMs: 9_000,
    },
    {
      what: 'the origin crashed while paused: its pause ends with it, then the gap',
      parts: [crashed('a', 0, 4_000, [{ startMs: 4_000, endMs: null }]), clean('b', 6_000, 2_000)],
      starts: [0, 6_500],
      pauses: [
        { startMs: 4_000, endMs: 4_000 },
        { startMs: 4_000, endMs: 6_000 },
      ],
      endMs: 8_000,
      durationMs: 6_000,
    },
    {
      what: 'the first room left no recording: the time before the second is cut',
      parts: [clean('b', 7_000, 4_000)],
      starts: [7_500],
      pauses: [{ startMs: 0, endMs: 7_000 }],
      endMs: 11_000,
      durationMs: 4_000,
    },
    {
      what: 'the last room crashed too: the session ends at its last media',
      parts: [crashed('a', 0, 5_000), crashed('b', 6_000, 3_000)],
      starts: [0, 6_000],
      pauses: [{ startMs: 5_000, endMs: 6_000 }],
      endMs: null,
      durationMs: 8_000,
    },
  ])('$what', ({ parts, starts, pauses, endMs, durationMs }) => {
    const { recording, probes } = joinParts(parts);
    expect(recording.tracks.map((t) => t.startMs)).toEqual(starts);
    expect(recording.tracks.map((t) => t.file)).toEqual(parts.map((p) => `${p.key}/webcamVideo-1.webm`));
    expect(recording.pauses).toEqual(pauses);
    expect(recording.endMs).toBe(endMs);
    expect(recording.skippedLines).toBe(parts.length);
    // The plan of the joined recording: the gaps are cut, every part plays.
    const plan = planComposition(recording, probes);
    expect(plan.durationMs).toBe(durationMs);
    expect(plan.webcams).toHaveLength(parts.length);
    expect(plan.skipped).toEqual([]);
  });
});
