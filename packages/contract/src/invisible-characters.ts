/**
 * Characters that show nothing: Unicode's Default_Ignorable_Code_Point (zero-width space and joiners, bidi
 * marks and overrides, the Hangul fillers U+3164, U+115F, U+1160 and U+FFA0, variation selectors, tags...)
 * plus U+2800, the blank braille pattern, which renders as an empty cell. Inclusive code point ranges, so
 * the server can build the same class for PostgreSQL (a nickname's unique key removes these).
 */
export const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x2800, 0x2800],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfff8],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];

/**
 * Spaces other than U+0020 that look like one (no-break, en and em spaces, the ideographic space...): a
 * nickname's unique key turns every run of spaces into one U+0020.
 */
export const SPACE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0020, 0x0020],
  [0x00a0, 0x00a0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];

/** A regular-expression character class of these ranges (`[\u{...}-\u{...}...]`, for the `u` flag). */
export function characterClass(ranges: ReadonlyArray<readonly [number, number]>): string {
  const hex = (codePoint: number) => `\\u{${codePoint.toString(16)}}`;
  return `[${ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('')}]`;
}

const INVISIBLE = new RegExp(characterClass(INVISIBLE_RANGES), 'u');

// Inside an emoji, a zero-width joiner, a variation selector or a tag is part of the picture (👨‍👩‍👧, ❤️,
// a subdivision flag), not something hidden.
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;
const EMOJI_PARTS = /^(?:\u200d|\ufe0e|\ufe0f|[\u{e0020}-\u{e007f}])$/u;

const segmenter = new Intl.Segmenter('ko', { granularity: 'grapheme' });

/**
 * True when `text` holds a character that shows nothing, other than the joiners, variation selectors and
 * tags inside an emoji.
 */
export function hasInvisibleCharacter(text: string): boolean {
  if (!INVISIBLE.test(text)) return false;
  for (const { segment } of segmenter.segment(text)) {
    if (!INVISIBLE.test(segment)) continue;
    if (!EMOJI.test(segment)) return true;
    for (const character of segment) {
      if (INVISIBLE.test(character) && !EMOJI_PARTS.test(character)) return true;
    }
  }
  return false;
}
