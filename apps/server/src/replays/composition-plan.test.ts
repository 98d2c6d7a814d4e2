import type { StreamKind } from '@sea/contract/live';
import { describe, expect, it } from 'vitest';
import { type MediaProbe, planComposition, withBoard } from './composition-plan.ts';
import type { RecordedPause, RecordedTrack, Recording } from './recording-manifest.ts';

/** A track of `kind` from `startMs` to `endMs` (null: no trackEnd) whose file holds `fileMs` of media. */
type Stretch = [kind: StreamKind, startMs: number, endMs: number | null, fileMs?: number | null];

function plan(stretches: Stretch[], options: { endMs?: number | null; pauses?: RecordedPause[] } = {}) {
  const tracks: RecordedTrack[] = stretches.map(([kind, startMs, endMs], i) => ({
    track: `${kind}-${i}`,
    kind,
    file: `${kind}-${i}.webm`,
    startMs,
    endMs,
  }));
  const probes = new Map<string, MediaProbe | null>(
    stretches.map(([kind, startMs, endMs, fileMs], i) => [
      `${kind}-${i}.webm`,
      fileMs === null
        ? null
        : {
            endMs: fileMs ?? (endMs ?? 0) - startMs,
            width: kind.endsWith('Video') ? 1280 : null,
            height: kind.endsWith('Video') ? 720 : null,
          },
    ]),
  );
  const recording: Recording = {
    teacherNickname: '파도선생',
    startedAt: '2026-11-25T01:00:00.000Z',
    tracks,
    pauses: options.pauses ?? [],
    stalls: [],
    endMs: options.endMs === undefined ? 10_000 : options.endMs,
    skippedLines: 0,
  };
  return planComposition(recording, probes);
}

const layouts = (p: ReturnType<typeof plan>) => p.layouts.map((s) => [s.fromMs, s.untilMs, s.layout]);
const places = (files: { atMs: number; untilMs: number }[]) => files.map((f) => [f.atMs, f.untilMs]);

describe('planComposition: the picture for each combination of streams', () => {
  it.each<[string, Stretch[], [number, number, string][]]>([
    ['webcam alone fills the picture', [['webcamVideo', 0, 10_000]], [[0, 10_000, 'webcam']]],
    ['screen alone fills the picture', [['screenShareVideo', 0, 10_000]], [[0, 10_000, 'screen']]],
    [
      'screen and webcam: screen with the webcam in a corner',
      [
        ['screenShareVideo', 0, 10_000],
        ['webcamVideo', 0, 10_000],
      ],
      [[0, 10_000, 'screen+webcam']],
    ],
    ['neither (microphone only): black with the name', [['webcamAudio', 0, 10_000]], [[0, 10_000, 'black']]],
    ['nothing published at all: black', [], [[0, 10_000, 'black']]],
    [
      'webcam switched off and on midway',
      [
        ['webcamVideo', 0, 3_000],
        ['webcamVideo', 6_000, 10_000],
      ],
      [
        [0, 3_000, 'webcam'],
        [3_000, 6_000, 'black'],
        [6_000, 10_000, 'webcam'],
      ],
    ],
    [
      'screen share starts and stops while the webcam stays on',
      [
        ['webcamVideo', 0, 10_000],
        ['screenShareVideo', 2_000, 7_000],
      ],
      [
        [0, 2_000, 'webcam'],
        [2_000, 7_000, 'screen+webcam'],
        [7_000, 10_000, 'webcam'],
      ],
    ],
    [
      'webcam toggled while the screen is shared, then the screen stops',
      [
        ['screenShareVideo', 0, 8_000],
        ['webcamVideo', 1_000, 4_000],
        ['webcamVideo', 5_000, 10_000],
      ],
      [
        [0, 1_000, 'screen'],
        [1_000, 4_000, 'screen+webcam'],
        [4_000, 5_000, 'screen'],
        [5_000, 8_000, 'screen+webcam'],
        [8_000, 10_000, 'webcam'],
      ],
    ],
    [
      'media starting after the session start: black until then',
      [['webcamVideo', 1_500, 10_000]],
      [
        [0, 1_500, 'black'],
        [1_500, 10_000, 'webcam'],
      ],
    ],
    [
      'files measured a few milliseconds apart switch nothing (no stretch under 200 ms)',
      [
        ['screenShareVideo', 0, 10_000],
        ['webcamVideo', 50, 9_990],
      ],
      [[0, 10_000, 'screen+webcam']],
    ],
  ])('%s', (_name, stretches, expected) => {
    expect(layouts(plan(stretches))).toEqual(expected);
  });

  it('puts the page beside the screen share where the teacher chose it and one shows, else instead of it', () => {
    const recorded = plan([
      ['webcamVideo', 0, 10_000],
      ['screenShareVideo', 2_000, 8_000],
    ]);
    const staged = withBoard(recorded, [
      { fromMs: 1_000, untilMs: 6_000, layout: 'side' },
      { fromMs: 6_000, untilMs: 9_000, layout: 'board' },
    ]);
    expect(layouts(staged)).toEqual([
      [0, 1_000, 'webcam'],
      // `side` before the screen share starts: the page alone, the webcam in its corner.
      [1_000, 2_000, 'board+webcam'],
      [2_000, 6_000, 'side+webcam'],
      [6_000, 9_000, 'board+webcam'],
      [9_000, 10_000, 'webcam'],
    ]);
    const noWebcam = withBoard(plan([['screenShareVideo', 0, 10_000]]), [
      { fromMs: 0, untilMs: 10_000, layout: 'side' },
    ]);
    expect(layouts(noWebcam)).toEqual([[0, 10_000, 'side']]);
  });

  it('mixes the microphone and system audio, each at its place', () => {
    const p = plan([
      ['webcamAudio', 0, 10_000],
      ['screenShareAudio', 2_000, 5_000],
      ['screenShareAudio', 6_000, 9_000],
    ]);
    expect(p.audio.map((a) => [a.kind, a.atMs, a.untilMs])).toEqual([
      ['webcamAudio', 0, 10_000],
      ['screenShareAudio', 2_000, 5_000],
      ['screenShareAudio', 6_000, 9_000],
    ]);
    expect(p.durationMs).toBe(10_000);
  });
});

describe('planComposition: pauses, crashes and damaged files', () => {
  it('cuts the pauses out: files after a pause move earlier by its length', () => {
    const p = plan(
      [
        ['webcamVideo', 0, 3_000],
        ['webcamAudio', 0, 3_000],
        ['webcamVideo', 5_000, 10_000],
        ['webcamAudio', 5_000, 10_000],
      ],
      { pauses: [{ startMs: 3_000, endMs: 5_000 }] },
    );
    expect(p.durationMs).toBe(8_000);
    expect(p.timeline.cuts).toEqual([{ atMs: 3_000, lengthMs: 2_000 }]);
    expect(places(p.webcams)).toEqual([
      [0, 3_000],
      [3_000, 8_000],
    ]);
    expect(places(p.audio)).toEqual([
      [0, 3_000],
      [3_000, 8_000],
    ]);
    expect(layouts(p)).toEqual([[0, 8_000, 'webcam']]);
  });

  it('a pause still open at the end cuts to the end', () => {
    const p = plan([['webcamVideo', 0, 4_000]], { pauses: [{ startMs: 4_000, endMs: null }] });
    expect(p.durationMs).toBe(4_000);
  });

  it('a file that ran into a pause (no trackEnd there) stops at the pause', () => {
    const p = plan([['webcamVideo', 0, null, 9_000]], { pauses: [{ startMs: 3_000, endMs: 5_000 }] });
    expect(places(p.webcams)).toEqual([[0, 3_000]]);
  });

  it('a crashed session (no end, no trackEnd) ends at the last media, by each file’s own length', () => {
    const p = plan(
      [
        ['webcamVideo', 0, null, 7_250],
        ['webcamAudio', 0, null, 7_400],
        ['screenShareVideo', 2_000, 4_000],
      ],
      { endMs: null },
    );
    expect(p.durationMs).toBe(7_400);
    expect(places(p.webcams)).toEqual([[0, 7_250]]);
    expect(layouts(p)).toEqual([
      [0, 2_000, 'webcam'],
      [2_000, 4_000, 'screen+webcam'],
      // The webcam's file ends 150 ms before the microphone's: too short a stretch to switch to black.
      [4_000, 7_400, 'webcam'],
    ]);
  });

  it('a crashed session with a pause cuts it from the measured end', () => {
    const p = plan(
      [
        ['webcamVideo', 0, 2_000],
        ['webcamVideo', 3_000, null, 4_000],
      ],
      { endMs: null, pauses: [{ startMs: 2_000, endMs: 3_000 }] },
    );
    expect(p.timeline.sessionEndMs).toBe(7_000);
    expect(p.durationMs).toBe(6_000);
  });

  it('a file shorter than its track ends with the file; an unreadable file is left out', () => {
    const p = plan([
      ['webcamVideo', 0, 10_000, 6_000],
      ['screenShareVideo', 0, 10_000, null],
    ]);
    expect(places(p.webcams)).toEqual([[0, 6_000]]);
    expect(p.screens).toEqual([]);
    expect(p.skipped).toEqual(['screenShareVideo-1.webm']);
    expect(layouts(p)).toEqual([
      [0, 6_000, 'webcam'],
      [6_000, 10_000, 'black'],
    ]);
  });

  it('media past the end is cut at the end', () => {
    const p = plan([['webcamVideo', 0, null, 12_000]], { endMs: 10_000 });
    expect(places(p.webcams)).toEqual([[0, 10_000]]);
  });

  it('a crashed session with nothing readable has no length', () => {
    expect(plan([['webcamVideo', 0, null, null]], { endMs: null }).durationMs).toBe(0);
  });
});
