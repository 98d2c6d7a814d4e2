import { describe, expect, it } from 'vitest';
import { buildTimeline, toReplayMs, toSessionMs } from './replay-timeline.ts';

describe('replay timeline', () => {
  const timeline = buildTimeline(
    [
      { startMs: 2_000, endMs: 3_000 },
      { startMs: 6_000, endMs: 8_000 },
    ],
    10_000,
  );

  it('cuts the pauses out of the session', () => {
    expect(timeline).toEqual({
      sessionEndMs: 10_000,
      durationMs: 7_000,
      cuts: [
        { atMs: 2_000, lengthMs: 1_000 },
        { atMs: 6_000, lengthMs: 2_000 },
      ],
    });
  });

  it.each([
    [0, 0],
    [1_500, 1_500],
    [2_000, 2_000],
    [2_500, 2_000], // inside a pause: where the pause is in the replay
    [3_000, 2_000],
    [4_000, 3_000],
    [7_000, 5_000],
    [9_000, 6_000],
    [10_000, 7_000],
    [12_000, 7_000], // after the end: the end
    [-5, 0],
  ])('session %i ms is replay %i ms', (session, replay) => {
    expect(toReplayMs(timeline, session)).toBe(replay);
  });

  it.each([
    [0, 0],
    [1_999, 1_999],
    [2_000, 3_000],
    [5_000, 8_000],
    [7_000, 10_000],
  ])('replay %i ms shows session %i ms', (replay, session) => {
    expect(toSessionMs(timeline, replay)).toBe(session);
  });

  it('merges overlapping pauses and clips them to the session', () => {
    const t = buildTimeline(
      [
        { startMs: 4_000, endMs: 12_000 },
        { startMs: 1_000, endMs: 3_000 },
        { startMs: 2_000, endMs: 5_000 },
      ],
      10_000,
    );
    expect(t.cuts).toEqual([
      { atMs: 1_000, lengthMs: 2_000 },
      { atMs: 3_000, lengthMs: 2_000 },
      { atMs: 5_000, lengthMs: 5_000 },
    ]);
    expect(t.durationMs).toBe(1_000);
  });
});
