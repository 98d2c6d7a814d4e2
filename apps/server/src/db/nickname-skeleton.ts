import { createRequire } from 'node:module';

// Nicknames are unique by their skeleton (Unicode UTS #39, section 4): 'аdmin' (Cyrillic а), 'ａｄｍｉｎ' and
// 'admin' + a combining mark are all 'admin'. The database computes it (the migration's
// `nickname_skeleton_of`, written from `skeletonFunctionSql()` below) so that no write can skip it; this file
// is where that function comes from, and the reference the tests hold the database's answers against.
//
// The mapping is the `unhomoglyph` package's copy of Unicode's confusables.txt. Two choices on top of it:
// - non-spacing marks are dropped (a mark on a letter does not make another name; the contract already
//   refuses more than two per character), so a mark that confusables.txt keeps is removed too;
// - Hangul syllables are kept whole: decomposed, '각까' and '갂가' would share a skeleton although no reader
//   mistakes one for the other. Loose jamo are still mapped as the standard says.

const NONSPACING_MARK = /\p{Mn}/gu;
const HANGUL_FIRST = 0xac00;
const HANGUL_LAST = 0xd7a3;

/** Each code point that maps to something else, and what it maps to (possibly nothing). */
export function skeletonMap(): ReadonlyMap<string, string> {
  const require = createRequire(import.meta.url);
  const confusables = require('unhomoglyph/data.json') as Record<string, string>;
  const map = new Map<string, string>();
  for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    const character = String.fromCodePoint(codePoint);
    if (/\p{Mn}/u.test(character)) map.set(character, '');
  }
  for (const [from, to] of Object.entries(confusables)) {
    if (map.get(from) === '') continue;
    const target = to.normalize('NFD').replace(NONSPACING_MARK, '');
    if (target !== from) map.set(from, target);
  }
  return map;
}

/** The skeleton of a nickname's visible form, as the database's `nickname_skeleton_of` computes it. */
export function skeletonOf(text: string, map: ReadonlyMap<string, string>): string {
  const characters = [...text.normalize('NFKC')].map((character) => {
    const codePoint = character.codePointAt(0) ?? 0;
    if (codePoint >= HANGUL_FIRST && codePoint <= HANGUL_LAST) return character;
    return [...character.normalize('NFD')].map((part) => map.get(part) ?? part).join('');
  });
  return characters.join('').normalize('NFD');
}

/** The SQL that creates `nickname_skeleton_of(text)`, the mapping inlined as one jsonb constant. */
export function skeletonFunctionSql(map: ReadonlyMap<string, string>): string {
  const json = JSON.stringify(Object.fromEntries(map)).replaceAll("'", "''");
  return [
    'CREATE FUNCTION "nickname_skeleton_of"(nickname text) RETURNS text',
    'LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $skeleton$',
    'SELECT normalize(coalesce(string_agg(',
    `  CASE WHEN ascii(c.ch) BETWEEN ${HANGUL_FIRST} AND ${HANGUL_LAST} THEN c.ch ELSE (`,
    "    SELECT string_agg(coalesce(m.map ->> d.ch, d.ch), '' ORDER BY d.n)",
    "    FROM regexp_split_to_table(normalize(c.ch, NFD), '') WITH ORDINALITY AS d(ch, n)",
    "  ) END, '' ORDER BY c.n), ''), NFD)",
    `FROM (SELECT '${json}'::jsonb AS map) AS m,`,
    "  regexp_split_to_table(normalize(nickname, NFKC), '') WITH ORDINALITY AS c(ch, n)",
    '$skeleton$;',
  ].join('\n');
}
