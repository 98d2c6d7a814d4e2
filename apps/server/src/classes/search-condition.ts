import { and, or, sql, type SQL } from 'drizzle-orm';
import { searchWords } from '@sea/contract/classes';
import { classes } from '../db/schema.ts';
import { searchAliases } from './search-aliases.ts';

/** A search turned into SQL over classes (their search document alone): which match, how well. */
export type SearchCondition = { matches: SQL; score: SQL<number> };

/** How much a word found in each place counts towards a class's score (anywhere: the whole document). */
const WEIGHTS = { name: 8, instructor: 4, category: 2, anywhere: 1 } as const;

/**
 * The lines of the folded document (migration 0020: title, nickname, category, then the description; the
 * first three are single-line texts): ranking reads a place from its line instead of folding the class's
 * title, its teacher's nickname and its category again for every ranked row (each fold is an NFKC, a lower
 * case and a regular expression: about 10 ms of a search that ranks 500 matches, bench/api/README.md).
 */
const DOCUMENT_LINES = { name: 1, instructor: 2, category: 3 } as const;
type DocumentLine = (typeof DOCUMENT_LINES)[keyof typeof DOCUMENT_LINES];

function documentLine(line: DocumentLine): SQL {
  return sql`split_part(${classes.searchText}, chr(10), ${sql.raw(String(line))})`;
}

/** pg_trgm reads no trigram from a shorter word inside `%...%`: such a word is found by its characters. */
const TRIGRAM_WORD_MIN = 3;

/** A word of consonants only is read as 초성 ('ㅌㅇㅅ' for 타입스크립트) from this many on. */
const INITIALS_MIN = 2;
const INITIALS = /^[\u3131-\u314e]+$/u;

/** `%word%` for LIKE, with the word folded (search_fold) and its pattern characters taken literally, in SQL. */
export function containsPattern(word: string): SQL {
  return sql`'%' || replace(replace(replace(search_fold(${word}::text), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
}

/** The word as the search document folds it, in JavaScript: only to choose how to find it. */
export function folded(word: string): string {
  return word.normalize('NFKC').toLowerCase();
}

/** A word of the search sources close to a typed word, and how close (search-terms.ts). */
export type Correction = { term: string; similarity: number };

/** The closest source words of each typed word that may be a typo (search-terms.ts); none: typos not tried. */
export type Corrections = ReadonlyMap<string, readonly Correction[]>;

/**
 * Every word of the query must be found in the class's search document (migration 0020, docs/api.md
 * "Search"): title, teacher's nickname, category and description folded (NFKC, lower case, no
 * spaces, so '영어회화' finds '여행 영어 회화'), or through another name of the same subject (search-aliases.ts),
 * or as 초성 of the title, nickname or category, or, given `corrections`, as a typo: the document holds one of
 * the source words whose jamo are close to the typed word's ('파이선' finds '파이썬', '타잎스크립트' finds
 * '타입스크립트'; the jamo fold ㅔ into ㅐ, so '재태크' finds '재테크'). A search asks for corrections only when it
 * found nothing without them (the typed word wins: '파이썬' never lists look-alikes). Every arm is answered by
 * a GIN index: the document's trigrams for words of three characters or more, the set of its characters for
 * shorter ones, the initials' trigrams for 초성.
 *
 * The score adds, per word, the weight of each place it is found in (an exact find), or, found only as a typo,
 * the similarity of the closest correction found (less than any exact find); the title's trigram similarity to
 * the whole query breaks ties.
 */
export function searchCondition(query: string, corrections?: Corrections): SearchCondition {
  const perWord = searchWords(query).map((word) => {
    const forms = [word, ...searchAliases(folded(word))];
    const exact = or(...forms.map(containedIn)) as SQL;
    // Not folded: NFKC turns compatibility jamo (what a keyboard types) into conjoining ones.
    const initials = isInitials(word)
      ? sql`${classes.searchInitials} like '%' || ${word}::text || '%'`
      : undefined;
    const typos = (corrections?.get(word) ?? []).map(({ term, similarity }) => ({
      found: containedIn(term),
      similarity,
    }));
    const placeScore = (line: DocumentLine, weight: number) =>
      sql`case when ${or(...forms.map((form) => sql`${documentLine(line)} like ${containsPattern(form)}`))} then ${weight} else 0 end`;
    // The closest correction first: corrections come sorted by similarity.
    const typoScore = sql.join(
      typos.map(({ found, similarity }) => sql` when ${found} then ${similarity}::float8`),
      sql``,
    );
    return {
      matches: or(exact, initials, ...typos.map(({ found }) => found)) as SQL,
      score: sql`(${placeScore(DOCUMENT_LINES.name, WEIGHTS.name)}
        + ${placeScore(DOCUMENT_LINES.instructor, WEIGHTS.instructor)}
        + ${placeScore(DOCUMENT_LINES.category, WEIGHTS.category)}
        + case when ${exact} then ${WEIGHTS.anywhere}${typoScore} else 0 end)`,
    };
  });
  const total = sql.join(
    perWord.map(({ score }) => score),
    sql` + `,
  );
  return {
    matches: and(...perWord.map(({ matches }) => matches)) as SQL,
    score: sql<number>`(${total} + similarity(${classes.name}, ${query.trim()}))`,
  };
}

/**
 * The folded document contains the word: LIKE on its trigram index, or for a word too short for a trigram,
 * the characters' index first (the word's characters all in the document) and LIKE on those rows.
 */
function containedIn(word: string): SQL {
  const contains = sql`${classes.searchText} like ${containsPattern(word)}`;
  if ([...folded(word)].length >= TRIGRAM_WORD_MIN) return contains;
  return sql`(${classes.searchChars} @> search_chars(search_fold(${word}::text)) and ${contains})`;
}

export function isInitials(word: string): boolean {
  return INITIALS.test(word) && [...word].length >= INITIALS_MIN;
}
