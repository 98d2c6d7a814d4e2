import { z } from 'zod';

/** Longest accepted optional or long text field (goal, description, announcement...). */
export const MAX_TEXT_LENGTH = 700;

/** A required text: non-blank after trimming, at most `max` characters. */
export function requiredText(required: string, max = MAX_TEXT_LENGTH) {
  return z.string({ error: required }).trim().min(1, required).max(max, `${max}자 이하로 입력해 주세요.`);
}

/** An optional text: blank becomes null, at most `max` characters. */
export function optionalText(max = MAX_TEXT_LENGTH) {
  return z
    .string({ error: '문자열이어야 해요.' })
    .trim()
    .max(max, `${max}자 이하로 입력해 주세요.`)
    .nullable()
    .transform((value) => (value === null || value === '' ? null : value));
}
