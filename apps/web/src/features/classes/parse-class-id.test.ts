import { describe, expect, it } from 'vitest';
import { parseClassId } from './parse-class-id.ts';

describe('parseClassId', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', 2147483647],
    ['2147483648', null],
    ['99999999999999999999', null],
    ['0', null],
    ['-3', null],
    ['1.5', null],
    ['abc', null],
    ['', null],
    [undefined, null],
  ])('reads %s as %s', (raw, expected) => {
    expect(parseClassId(raw)).toBe(expected);
  });
});
