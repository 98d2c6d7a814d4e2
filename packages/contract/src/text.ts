import { z } from 'zod';
import { fitsLength, textLength } from './text-length.ts';

/** Longest accepted optional or long text field (goal, description, announcement...). */
export const MAX_TEXT_LENGTH = 700;

/** Messages of the rules every text field shares. */
export const TEXT_MESSAGES = {
  control: '입력할 수 없는 문자(제어 문자)가 들어 있어요.',
  tooLong: (max: number) => `${max}자 이하로 입력해 주세요.`,
} as const;

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
