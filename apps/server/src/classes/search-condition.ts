import { and, or, sql, type SQL } from 'drizzle-orm';
import { searchWords } from '@sea/contract/classes';
import { categories, classes, users } from '../db/schema.ts';
import { searchAliases } from './search-aliases.ts';

/** A search turned into SQL over classes joined with their teacher and category: which match, how well. */
export type SearchCondition = { matches: SQL; score: SQL<number> };

/** How much a word found in each place counts towards a class's score (anywhere: the whole document). */
const WEIGHTS = { name: 8, instructor: 4, category: 2, anywhere: 1 } as const;

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
function folded(word: string): string {
  return word.normalize('NFKC').toLowerCase();
}

/**
 * Every word of the query must be found in the class's search document (migration 0016, docs/api.md
 * "Search"): title, teacher's nickname, category and description folded (NFKC, lower case, no
 * spaces, so '영어회화' finds '여행 영어 회화'), or through another name of the same subject (search-aliases.ts),
 * or as 초성 of the title, nickname or category, or, for a word of two characters or more, as a typo: its jamo
 * close enough (pg_trgm word similarity, default threshold 0.6) to a word of theirs ('파이선', '타잎스크립트';
 * the jamo fold ㅔ into ㅐ, so '재태크' is found too). Typos only with `typos`: a search tries them when it
 * found nothing without them, because judging a typo costs a similarity per visited row (125 ms for 6 000
 * rows at 100 000 classes), where the exact arms cost a LIKE. Every arm is answered by a GIN index: the
 * document's trigrams for words of three characters or more, the set of its characters for shorter ones.
 *
 * The score adds, per word, the weight of each place it is found in (an exact find), or, found only as a typo,
 * its similarity (less than any exact find); the title's trigram similarity to the whole query breaks ties.
 */
export function searchCondition(query: string, { typos }: { typos: boolean }): SearchCondition {
  const perWord = searchWords(query).map((word) => {
    const forms = [word, ...searchAliases(folded(word))];
    const exact = or(...forms.map(containedIn)) as SQL;
    // Not folded: NFKC turns compatibility jamo (what a keyboard types) into conjoining ones.
    const initials = isInitials(word)
      ? sql`${classes.searchInitials} like '%' || ${word}::text || '%'`
      : undefined;
    const typo = typos ? typoOf(word) : undefined;
    const placeScore = (place: SQL, weight: number) =>
      sql`case when ${or(...forms.map((form) => sql`search_fold(${place}) like ${containsPattern(form)}`))} then ${weight} else 0 end`;
    return {
      matches: or(exact, initials, typo?.matches) as SQL,
      score: sql`(${placeScore(sql`${classes.name}`, WEIGHTS.name)}
        + ${placeScore(sql`${users.nickname}`, WEIGHTS.instructor)}
        + ${placeScore(sql`${categories.name}`, WEIGHTS.category)}
        + case when ${exact} then ${WEIGHTS.anywhere} else ${typo?.similarity ?? sql`0`} end)`,
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

function isInitials(word: string): boolean {
  return INITIALS.test(word) && [...word].length >= INITIALS_MIN;
}

/** A word found as a typo of one of the document's words, and how close; none for one character or 초성. */
function typoOf(word: string): { matches: SQL; similarity: SQL } | undefined {
  if ([...folded(word)].length < 2 || INITIALS.test(word)) return undefined;
  const jamo = sql`search_jamo(lower(normalize(${word}::text, NFKC)))`;
  return {
    matches: sql`${classes.searchWords} %> ${jamo}`,
    similarity: sql`word_similarity(${jamo}, ${classes.searchWords})`,
  };
}
