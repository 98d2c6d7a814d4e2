import { describe, expect, it } from 'vitest';
import { clipText, fitsLength, MAX_UNITS_PER_CHARACTER, textLength } from './text-length.ts';

const FAMILY = '👨‍👩‍👧‍👦';
const SCOTLAND = '🏴󠁧󠁢󠁳󠁣󠁴󠁿';
const JAMO = '\u1100\u1161\u11a8'; // 각 written as three jamo

describe('textLength counts what a person sees', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['파도선생', 4],
    [JAMO, 1],
    ['e\u0301', 1],
    ['😀', 1],
    ['👍🏽', 1],
    [FAMILY, 1],
    [SCOTLAND, 1],
    ['🇰🇷', 1],
    ['1️⃣', 1],
    ['a\r\nb', 3],
    ['😀'.repeat(20), 20],
  ])('%j has %i characters', (text, length) => {
    expect(textLength(text)).toBe(length);
  });

  it('fitsLength agrees with textLength, and refuses piles of combining marks', () => {
    expect(fitsLength('😀'.repeat(20), 20)).toBe(true);
    expect(fitsLength('😀'.repeat(21), 20)).toBe(false);
    expect(fitsLength(FAMILY.repeat(20), 20)).toBe(true);
    const pile = `a${'\u0301'.repeat(MAX_UNITS_PER_CHARACTER * 2)}`;
    expect(textLength(pile)).toBe(1);
    expect(fitsLength(pile, 1)).toBe(false);
  });

  it('clipText keeps whole characters', () => {
    expect(clipText('😀'.repeat(5), 3)).toBe('😀😀😀');
    expect(clipText(`ab${FAMILY}cd`, 3)).toBe(`ab${FAMILY}`);
    expect(clipText(`가${JAMO}나`, 2)).toBe(`가${JAMO}`);
    expect(clipText('짧은 글', 10)).toBe('짧은 글');
  });
});
