import { describe, expect, it } from 'vitest';
import { distanceToSegment, strokesTouched } from './hit-test.ts';
import type { InkTool, Stroke } from './ink-types.ts';

const size = { width: 1000, height: 500 };
const make = (id: string, tool: InkTool, points: Stroke['points'], text?: string): Stroke => ({
  id,
  tool,
  color: '#000',
  width: 0.002,
  points,
  done: true,
  ...(text === undefined ? {} : { text }),
});

describe('hit test', () => {
  it('measures the distance to a segment, its ends included', () => {
    expect(distanceToSegment([5, 5], [0, 0], [10, 0])).toBe(5);
    expect(distanceToSegment([13, 4], [0, 0], [10, 0])).toBe(5);
    expect(distanceToSegment([3, 4], [0, 0], [0, 0])).toBe(5);
  });

  it.each([
    [
      'a pen stroke along its path',
      make('p', 'pen', [
        [0.1, 0.1, 0.5],
        [0.3, 0.1, 0.5],
      ]),
      [0.2, 0.102],
      true,
    ],
    [
      'a pen stroke away from it',
      make('p', 'pen', [
        [0.1, 0.1, 0.5],
        [0.3, 0.1, 0.5],
      ]),
      [0.2, 0.3],
      false,
    ],
    [
      'a rectangle on its edge',
      make('r', 'rect', [
        [0.1, 0.1, 0.5],
        [0.5, 0.5, 0.5],
      ]),
      [0.5, 0.3],
      true,
    ],
    [
      'a rectangle inside (empty)',
      make('r', 'rect', [
        [0.1, 0.1, 0.5],
        [0.5, 0.5, 0.5],
      ]),
      [0.3, 0.3],
      false,
    ],
    [
      'an ellipse on its edge',
      make('e', 'ellipse', [
        [0.2, 0.2, 0.5],
        [0.6, 0.6, 0.5],
      ]),
      [0.6, 0.4],
      true,
    ],
    [
      'an ellipse at its centre',
      make('e', 'ellipse', [
        [0.2, 0.2, 0.5],
        [0.6, 0.6, 0.5],
      ]),
      [0.4, 0.4],
      false,
    ],
    [
      'a line by its last point',
      make('l', 'line', [
        [0.1, 0.1, 0.5],
        [0.2, 0.9, 0.5],
        [0.9, 0.9, 0.5],
      ]),
      [0.5, 0.5],
      true,
    ],
    ['text on its words', make('t', 'text', [[0.1, 0.1, 0.5]], '안녕하세요'), [0.12, 0.12], true],
  ] as const)('touches %s: %s', (_, stroke, at, expected) => {
    expect(strokesTouched([stroke], at, 4, size)).toEqual(expected ? [stroke.id] : []);
  });
});
