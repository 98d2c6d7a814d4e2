import { z } from 'zod';

/**
 * The largest class, category or schedule id: they are PostgreSQL `integer` (int4) columns. A larger number
 * names nothing, and PostgreSQL refuses to even compare it with such a column (SQLSTATE 22003, a 500), so
 * every id that comes in is bounded by this first.
 */
export const MAX_ID = 2 ** 31 - 1;

/** What a person reads when an id cannot be one. */
export const ID_MESSAGE = '올바른 번호가 아니에요.';

/** An id sent as a JSON number: a positive integer up to MAX_ID; every failure says `message`. */
export function id(message: string = ID_MESSAGE) {
  return z.number({ error: message }).int(message).positive(message).max(MAX_ID, message);
}

/** An id in a path or query string (`/api/classes/42`, `?category=3`): the same rule on its digits. */
export function idText(message: string = ID_MESSAGE) {
  return z.coerce.number({ error: message }).int(message).positive(message).max(MAX_ID, message);
}
