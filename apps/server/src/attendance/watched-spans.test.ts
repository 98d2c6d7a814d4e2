import { describe, expect, it } from 'vitest';
import { addSpan, countSeconds, type WatchedSpans } from './watched-spans.ts';

describe('addSpan', () => {
  it.each<[string, WatchedSpans, number, number, WatchedSpans]>([
    ['into nothing', [], 0, 5, [[0, 5]]],
    ['an empty span', [[0, 5]], 7, 7, [[0, 5]]],
    [
      'before',
      [[10, 20]],
      0,
      5,
      [
        [0, 5],
        [10, 20],
      ],
    ],
    [
      'after',
      [[0, 5]],
      10,
      20,
      [
        [0, 5],
        [10, 20],
      ],
    ],
    ['touching merges', [[0, 5]], 5, 10, [[0, 10]]],
    ['inside counts nothing new', [[0, 10]], 2, 8, [[0, 10]]],
    [
      'bridging two',
      [
        [0, 5],
        [10, 15],
        [30, 40],
      ],
      4,
      11,
      [
        [0, 15],
        [30, 40],
      ],
    ],
    [
      'covering all',
      [
        [2, 3],
        [5, 6],
      ],
      0,
      10,
      [[0, 10]],
    ],
  ])('%s', (_name, spans, start, end, expected) => {
    expect(addSpan(spans, start, end)).toEqual(expected);
  });

  it('counts each second once however often it is added', () => {
    let spans: WatchedSpans = [];
    for (let round = 0; round < 5; round += 1) {
      for (let s = 0; s < 24; s += 3) spans = addSpan(spans, s, s + 5);
    }
    expect(spans).toEqual([[0, 26]]);
    expect(countSeconds(spans)).toBe(26);
  });
});
