import { describe, expect, it } from 'vitest';
import type { MediaProbe } from './composition-plan.ts';
import { findGaps } from './recording-gaps.ts';
import type { RecordedTrack, Recording } from './recording-manifest.ts';

const track = (file: string, startMs: number, endMs: number | null): RecordedTrack => ({
  track: file.split('.')[0] ?? file,
  kind: 'webcamAudio',
  file,
  startMs,
  endMs,
});
const recording = (tracks: RecordedTrack[], extra: Partial<Recording> = {}): Recording => ({
  teacherNickname: '파도선생',
  startedAt: '2026-12-01T10:00:00.000Z',
  tracks,
  pauses: [],
  stalls: [],
  endMs: 60_000,
  skippedLines: 0,
  ...extra,
});
const lasting = (entries: [string, number][]) =>
  new Map<string, MediaProbe | null>(
    entries.map(([file, endMs]) => [file, { endMs, width: null, height: null }]),
  );

describe('findGaps', () => {
  it('finds the stretch where a stream was on but its file stopped holding media, until its next file', () => {
    const tracks = [track('a.webm', 0, 40_000), track('b.webm', 40_000, 60_000)];
    expect(
      findGaps(
        recording(tracks),
        lasting([
          ['a.webm', 12_000],
          ['b.webm', 20_000],
        ]),
      ),
    ).toEqual([{ fromMs: 12_000, untilMs: 40_000 }]);
  });

  it('finds none where another stream covers the time, nor in the teacher’s pauses, nor under 2 s', () => {
    const tracks = [track('a.webm', 0, 60_000), track('b.webm', 0, 60_000)];
    expect(
      findGaps(
        recording(tracks),
        lasting([
          ['a.webm', 30_000],
          ['b.webm', 60_000],
        ]),
      ),
    ).toEqual([]);
    const paused = recording([track('a.webm', 0, 60_000)], { pauses: [{ startMs: 30_000, endMs: null }] });
    expect(findGaps(paused, lasting([['a.webm', 30_000]]))).toEqual([]);
    expect(findGaps(recording([track('a.webm', 0, 60_000)]), lasting([['a.webm', 58_500]]))).toEqual([]);
  });

  it('finds none where every stream was switched off (a trackEnd): nothing was meant to be recorded', () => {
    const tracks = [track('a.webm', 0, 10_000), track('b.webm', 50_000, 60_000)];
    expect(
      findGaps(
        recording(tracks),
        lasting([
          ['a.webm', 10_000],
          ['b.webm', 10_000],
        ]),
      ),
    ).toEqual([]);
  });

  it('after a crash (no end, no trackEnd) the recording ends at its last media: no gap at its end', () => {
    const crashed = recording([track('a.webm', 0, null), track('b.webm', 0, null)], { endMs: null });
    expect(
      findGaps(
        crashed,
        lasting([
          ['a.webm', 5_000],
          ['b.webm', 9_000],
        ]),
      ),
    ).toEqual([]);
  });

  it('finds the stretch the media service said it could not write, though it ended every stream there', () => {
    // The disk filled at 20 s (every file ended with a trackEnd) and came back at 45 s with new files; a
    // second stall at 55 s lasted to the end of the lecture.
    const tracks = [track('a.webm', 0, 20_000), track('a2.webm', 45_000, 55_000)];
    const stalled = recording(tracks, {
      stalls: [
        { startMs: 20_000, endMs: 45_000 },
        { startMs: 55_000, endMs: null },
      ],
    });
    expect(
      findGaps(
        stalled,
        lasting([
          ['a.webm', 20_000],
          ['a2.webm', 10_000],
        ]),
      ),
    ).toEqual([
      { fromMs: 20_000, untilMs: 45_000 },
      { fromMs: 55_000, untilMs: 60_000 },
    ]);
  });
});
