import { z } from 'zod';

/** Longest accepted optional or long text field (goal, description, announcement...). */
export const MAX_TEXT_LENGTH = 700;

/**
 * A text may hold at most this many UTF-16 units per character it is allowed, so a few characters piled high
 * with combining marks (each pile counts as one character) cannot carry a large text. The longest emoji
 * sequences in use (a family with skin tones, a subdivision flag) take 14 to 19 units for one character.
 */
export const MAX_UNITS_PER_CHARACTER = 16;

/** Messages of the rules every text field shares. */
export const TEXT_MESSAGES = {
  control: '입력할 수 없는 문자(제어 문자)가 들어 있어요.',
  tooLong: (max: number) => `${max}자 이하로 입력해 주세요.`,
} as const;

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

// C0 and C1 controls and UTF-16 halves without their other half (PostgreSQL text holds neither NUL nor
// them). Multi-line texts keep tab, line feed and carriage return; single-line ones refuse those and the
// Unicode line and paragraph separators too.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|\p{Cs}/u;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]|\p{Cs}/u;

/** True when `text` holds a character no text field accepts (see {@link TEXT_MESSAGES}.control). */
export function hasControlCharacter(text: string, multiline: boolean): boolean {
  return (multiline ? CONTROL_MULTILINE : CONTROL_SINGLE_LINE).test(text);
}

/** How a text field is checked: its length in characters, and whether it may hold line breaks. */
export type TextRules = {
  /** At most this many characters; default {@link MAX_TEXT_LENGTH}. */
  max?: number;
  /** At least this many characters (after trimming); a blank text always fails with the `required` message. */
  min?: number;
  /** The message of a failed length rule; default "{max}자 이하로 입력해 주세요.". */
  lengthMessage?: string;
  /** True (the default) for a text area; false refuses tabs and line breaks. */
  multiline?: boolean;
};

/** A trimmed string that refuses control characters and counts its length in characters. */
function checkedText(rules: TextRules, typeError: string) {
  const { max = MAX_TEXT_LENGTH, min = 0, multiline = true } = rules;
  const lengthMessage = rules.lengthMessage ?? TEXT_MESSAGES.tooLong(max);
  return z
    .string({ error: typeError })
    .trim()
    .refine((text) => !hasControlCharacter(text, multiline), TEXT_MESSAGES.control)
    .refine((text) => text === '' || (fitsLength(text, max) && textLength(text) >= min), lengthMessage);
}

/** A required text: non-blank after trimming, no control characters, at most `max` characters. */
export function requiredText(required: string, rules: TextRules = {}) {
  return z.string({ error: required }).trim().min(1, required).pipe(checkedText(rules, required));
}

/** An optional text: blank becomes null; no control characters, at most `max` characters. */
export function optionalText(rules: TextRules = {}) {
  return checkedText(rules, '문자열이어야 해요.')
    .nullable()
    .transform((value) => (value === null || value === '' ? null : value));
}
