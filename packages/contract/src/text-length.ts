// Counting characters as a person does. Free of zod, so a page can count without loading the schemas.

/**
 * A text may hold at most this many UTF-16 units per character it is allowed, so a few characters piled high
 * with combining marks (each pile counts as one character) cannot carry a large text. The longest emoji
 * sequences in use (a family with skin tones, a subdivision flag) take 14 to 19 units for one character.
 */
export const MAX_UNITS_PER_CHARACTER = 16;

const segmenter = new Intl.Segmenter('ko', { granularity: 'grapheme' });

/**
 * The length of a text as a person counts it: grapheme clusters, so an emoji with its modifiers, a Hangul
 * syllable written as separate jamo, or a letter with its accents each count one. The server's schemas and
 * the web forms' counters both count with this.
 */
export function textLength(text: string): number {
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
}

/** True when `text` is at most `max` characters long (as {@link textLength} counts). */
export function fitsLength(text: string, max: number): boolean {
  if (text.length <= max) return true;
  if (text.length > max * MAX_UNITS_PER_CHARACTER) return false;
  return textLength(text) <= max;
}

/** The first `max` characters of `text` (as {@link textLength} counts), never splitting one. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  let count = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (count === max || end + segment.length > max * MAX_UNITS_PER_CHARACTER) break;
    end += segment.length;
    count += 1;
  }
  return text.slice(0, end);
}
