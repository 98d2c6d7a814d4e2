import { describe, expect, it } from 'vitest';
import type { SessionBoard } from '@sea/contract/board';
import { replayFrame } from './replay-frame.ts';

type StoredStroke = SessionBoard['strokes'][number];

const stroke = (
  id: string,
  page: number,
  times: [number, number, number | null],
  points = 4,
): StoredStroke => ({
  material_id: 5,
  page,
  stroke_id: id,
  tool: 'pen',
  color: '#000000',
  width: 0.004,
  text: null,
  points: Array.from({ length: points }, (_, index) => [index / 10, 0.5, 0.5] as [number, number, number]),
  done: true,
  by: 'teacher',
  offset_ms: times[0],
  end_offset_ms: times[1],
  erased_offset_ms: times[2],
});

const board: SessionBoard = {
  session_id: 1,
  stages: [
    { offset_ms: 1_000, material_id: 5, page: 1, layout: 'board' },
    { offset_ms: 20_000, material_id: 5, page: 2, layout: 'board' },
    { offset_ms: 40_000, material_id: null, page: null, layout: 'board' },
  ],
  strokes: [
    stroke('a', 1, [2_000, 3_000, null]),
    stroke('b', 1, [4_000, 8_000, 10_000]),
    stroke('c', 2, [21_000, 22_000, null]),
  ],
};

describe('replayFrame', () => {
  it.each([
    [500, null, []],
    [1_500, '5:1', []],
    [2_500, '5:1', [['a', 2]]],
    [
      6_000,
      '5:1',
      [
        ['a', 4],
        ['b', 2],
      ],
    ],
    [12_000, '5:1', [['a', 4]]],
    [30_000, '5:2', [['c', 4]]],
    [45_000, null, []],
  ] as const)('at %i ms shows page %s with strokes %j', (timeMs, page, expected) => {
    const frame = replayFrame(board, timeMs);
    expect(frame.page && `${frame.page.materialId}:${frame.page.page}`).toBe(page);
    expect(frame.strokes.map((held) => [held.id, held.points.length])).toEqual(expected);
  });

  it('changes its signature only when what is drawn changes', () => {
    expect(replayFrame(board, 12_000).signature).toBe(replayFrame(board, 15_000).signature);
    expect(replayFrame(board, 5_000).signature).not.toBe(replayFrame(board, 7_500).signature);
  });
});
