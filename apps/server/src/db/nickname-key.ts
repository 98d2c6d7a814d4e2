import { sql, type SQL } from 'drizzle-orm';
import { INVISIBLE_RANGES, SPACE_RANGES } from '@sea/contract/invisible-characters';

/** A PostgreSQL regular-expression class of these code point ranges (`[\u00ad\U000e0000-...]`). */
function postgresClass(ranges: ReadonlyArray<readonly [number, number]>): string {
  const escape = (codePoint: number) =>
    codePoint <= 0xffff
      ? `\\u${codePoint.toString(16).padStart(4, '0')}`
      : `\\U${codePoint.toString(16).padStart(8, '0')}`;
  return `[${ranges.map(([from, to]) => (from === to ? escape(from) : `${escape(from)}-${escape(to)}`)).join('')}]`;
}

const INVISIBLE = postgresClass(INVISIBLE_RANGES);
const SPACES = `${postgresClass(SPACE_RANGES)}+`;

/**
 * What a nickname shows, in SQL: NFC, the contract's invisible characters removed, every run of spaces one
 * U+0020, none at either end. `users.nickname_key` is this of `nickname` (a generated column, so no write can
 * skip it).
 */
export function nicknameKeyOf(nickname: SQL): SQL {
  return sql`btrim(regexp_replace(regexp_replace(normalize(${nickname}, NFC), ${sql.raw(`'${INVISIBLE}'`)}, '', 'g'), ${sql.raw(`'${SPACES}'`)}, ' ', 'g'), ' ')`;
}

/**
 * What the nickname looks like, in SQL: the skeleton (nickname-skeleton.ts) of its key. `users.nickname_skeleton`
 * is this of `nickname` and carries the unique index; the nickname check compares the same of the asked name.
 */
export function nicknameSkeletonOf(nickname: SQL): SQL {
  return sql`nickname_skeleton_of(${nicknameKeyOf(nickname)})`;
}
