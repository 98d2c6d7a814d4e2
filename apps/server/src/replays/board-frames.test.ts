import { describe, expect, it } from 'vitest';
import type { SessionBoard } from '@sea/contract/board';
import { boardAt, BOARD_STEP_MS, boardFrames, indexBoard, MAX_BOARD_FRAMES } from './board-frames.ts';

type Stored = SessionBoard['strokes'][number];
const stroke = (id: string, fromMs: number, untilMs: number, fields: Partial<Stored> = {}): Stored => ({
  material_id: 7,
  page: 2,
  stroke_id: id,
  tool: 'pen',
  color: '#ff0000',
  width: 0.01,
  text: null,
  points: [
    [0.1, 0.1, 0.5],
    [0.2, 0.2, 0.5],
    [0.3, 0.3, 0.5],
    [0.4, 0.4, 0.5],
  ],
  done: true,
  by: 'teacher',
  offset_ms: fromMs,
  end_offset_ms: untilMs,
  erased_offset_ms: null,
  ...fields,
});
type Stage = SessionBoard['stages'][number];
/** A board; a page change without a layout is in `board`'s. */
const board = (stages: (Omit<Stage, 'layout'> & Partial<Stage>)[], strokes: Stored[]) =>
  indexBoard({ session_id: 1, stages: stages.map((s) => ({ layout: 'board', ...s })), strokes });
/** Each frame's stretch, page, and its strokes' drawn points. */
const summary = (indexed: ReturnType<typeof board>, durationMs: number) =>
  boardFrames(indexed, durationMs).map((f) => [
    f.fromMs,
    f.untilMs,
    `${f.page.materialId}:${f.page.page}`,
    boardAt(indexed, f.fromMs).strokes.map((s) => s.points.length),
  ]);

describe('board frames', () => {
  it('follows the pages on stage, the ink drawn at each step, and erasing', () => {
    const indexed = board(
      [
        { offset_ms: 1_000, material_id: 7, page: 1 },
        { offset_ms: 2_300, material_id: 7, page: 2 },
        { offset_ms: 8_000, material_id: null, page: null },
      ],
      [stroke('a', 3_000, 4_000, { erased_offset_ms: 6_200 }), stroke('b', 3_100, 3_100, { page: 1 })],
    );
    expect(summary(indexed, 10_000)).toEqual([
      [1_000, 2_300, '7:1', []],
      [2_300, 3_000, '7:2', []],
      // Stroke a (4 points, 3-4 s) at 3.0 s has its first point, half at 3.5 s, all from 4.0 s.
      [3_000, 3_500, '7:2', [1]],
      [3_500, 4_000, '7:2', [2]],
      [4_000, 6_500, '7:2', [4]],
      [6_500, 8_000, '7:2', []],
    ]);
    // The same look twice is one signature: its picture is made once.
    const frames = boardFrames(indexed, 10_000);
    expect(frames[1]?.signature).toBe(frames[5]?.signature);
    expect(frames[1]?.signature).not.toBe(frames[4]?.signature);
  });

  it('stops at the replay end and makes nothing when the stage was never used', () => {
    expect(boardFrames(board([], [stroke('a', 0, 100)]), 10_000)).toEqual([]);
    const staged = board([{ offset_ms: 9_000, material_id: 0, page: 1 }], []);
    expect(summary(staged, 9_600)).toEqual([[9_000, 9_600, '0:1', []]]);
  });

  it('puts a page beside the screen share only where one shows, as another picture', () => {
    const indexed = board(
      [
        { offset_ms: 1_000, material_id: 7, page: 2, layout: 'side' },
        { offset_ms: 6_000, material_id: 7, page: 2, layout: 'board' },
      ],
      [],
    );
    // The screen share shows 0-3 s and 4-8 s.
    const screens = [
      { fromMs: 0, untilMs: 3_000 },
      { fromMs: 4_000, untilMs: 8_000 },
    ];
    const frames = boardFrames(indexed, 10_000, screens);
    expect(frames.map((f) => [f.fromMs, f.untilMs, f.layout])).toEqual([
      [1_000, 3_000, 'side'],
      // Without a screen share beside it, the page takes the picture alone.
      [3_000, 4_000, 'board'],
      [4_000, 6_000, 'side'],
      [6_000, 10_000, 'board'],
    ]);
    expect(frames[0]?.signature).toBe(frames[2]?.signature);
    expect(frames[1]?.signature).toBe(frames[3]?.signature);
    expect(frames[0]?.signature).not.toBe(frames[1]?.signature);
    // A board shown only in `board` is cut nowhere by the screen share.
    const plain = board([{ offset_ms: 1_000, material_id: 7, page: 2 }], []);
    expect(boardFrames(plain, 10_000, screens).map((f) => [f.fromMs, f.untilMs, f.layout])).toEqual([
      [1_000, 10_000, 'board'],
    ]);
  });

  it('renews a long lecture drawn all along less often, within the cap', () => {
    // Two hours of continuous drawing: 7 200 strokes of a second each.
    const strokes = Array.from({ length: 7_200 }, (_, i) => stroke(`s${i}`, i * 1_000, i * 1_000 + 900));
    const frames = boardFrames(board([{ offset_ms: 0, material_id: 7, page: 2 }], strokes), 7_200_000);
    expect(frames.length).toBeLessThanOrEqual(MAX_BOARD_FRAMES);
    expect(frames.length).toBeGreaterThan(MAX_BOARD_FRAMES / 4);
    expect(frames.every((f) => f.untilMs - f.fromMs >= BOARD_STEP_MS)).toBe(true);
    expect(frames.at(-1)?.untilMs).toBe(7_200_000);
  });
});
