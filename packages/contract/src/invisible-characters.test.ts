import { describe, expect, it } from 'vitest';
import {
  characterClass,
  hasInvisibleCharacter,
  INVISIBLE_RANGES,
  SPACE_RANGES,
} from './invisible-characters.ts';
import { SignupSchema, USER_MESSAGES } from './users.ts';

const inRanges = (ranges: typeof INVISIBLE_RANGES, codePoint: number) =>
  ranges.some(([from, to]) => codePoint >= from && codePoint <= to);

describe('the invisible characters', () => {
  it("are Unicode's default-ignorable code points plus the blank braille pattern, over all of Unicode", () => {
    const differences: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
      const ignorable = /\p{Default_Ignorable_Code_Point}/u.test(String.fromCodePoint(codePoint));
      if (ignorable !== inRanges(INVISIBLE_RANGES, codePoint) && codePoint !== 0x2800) {
        differences.push(codePoint.toString(16));
      }
    }
    expect(differences).toEqual([]);
    expect(inRanges(INVISIBLE_RANGES, 0x2800)).toBe(true);
  });

  it('the spaces are the white space of Unicode that is not a control or a line break', () => {
    for (let codePoint = 0; codePoint <= 0xffff; codePoint += 1) {
      const character = String.fromCodePoint(codePoint);
      const space = /\p{Space_Separator}/u.test(character);
      expect(inRanges(SPACE_RANGES, codePoint), codePoint.toString(16)).toBe(space);
    }
  });

  it('characterClass builds a class of the ranges', () => {
    const pattern = new RegExp(
      characterClass([
        [0x41, 0x43],
        [0x1f600, 0x1f600],
      ]),
      'u',
    );
    expect(['A', 'B', 'C', '😀'].every((c) => pattern.test(c))).toBe(true);
    expect(['D', '@', '😁'].some((c) => pattern.test(c))).toBe(false);
  });
});

describe('hasInvisibleCharacter', () => {
  it.each([
    ['파도선생\u200b', true],
    ['파도\u200d선생', true],
    ['\u3164', true],
    ['\u115f\u1160', true],
    ['\u202e', true],
    ['a\ufe0f', true],
    ['⠀', true],
    ['파도선생', false],
    ['파도 선생', false],
    ['👨‍👩‍👧', false],
    ['❤️', false],
    ['1️⃣', false],
    ['🏴󠁧󠁢󠁳󠁣󠁴󠁿', false],
    ['👍🏽', false],
    ['🇰🇷', false],
    ['😀\u200b', true],
    ['😀\u{e0041}\u200b', true],
  ])('%j → %s', (text, invisible) => {
    expect(hasInvisibleCharacter(text)).toBe(invisible);
  });

  it('refuses a nickname that holds one, and gives the nickname in NFC', () => {
    expect(SignupSchema.safeParse({ nickname: '파도선생\u200b' }).error?.issues[0]?.message).toBe(
      USER_MESSAGES.nicknameInvisible,
    );
    expect(SignupSchema.parse({ nickname: '\u1100\u1161\u11a8\u1112\u1161' }).nickname).toBe('각하');
  });
});
