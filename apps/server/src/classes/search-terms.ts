import { desc, sql } from 'drizzle-orm';
import { searchWords } from '@sea/contract/classes';
import type { Executor } from '../db/database.ts';
import { searchTerms } from '../db/schema.ts';
import {
  type Correction,
  type Corrections,
  folded,
  isInitials,
  searchCondition,
  type SearchCondition,
} from './search-condition.ts';

/** How many source words one typed word may stand for, the closest first. */
const CORRECTIONS_MAX = 5;

/**
 * For each word of `query` that may be a typo (two characters or more, not 초성), the source words whose jamo it
 * is close to: pg_trgm word similarity at its threshold (0.6) against `search_terms` (migration 0023), the
 * words of every class's title, teacher's nickname and category. A few thousand short rows on a trigram index
 * stand in for judging the similarity of every class's source (25-60 ms at 100 000 classes).
 */
async function corrections(db: Executor, query: string): Promise<Corrections> {
  const found = new Map<string, Correction[]>();
  for (const word of searchWords(query)) {
    if (found.has(word) || [...folded(word)].length < 2 || isInitials(word)) continue;
    const jamo = sql`search_jamo(lower(normalize(${word}::text, NFKC)))`;
    const similarity = sql<number>`word_similarity(${jamo}, ${searchTerms.jamo})`.mapWith(Number);
    const closest = await db
      .select({ term: searchTerms.term, similarity })
      .from(searchTerms)
      .where(sql`${searchTerms.jamo} %> ${jamo}`)
      .orderBy(desc(similarity), searchTerms.term)
      .limit(CORRECTIONS_MAX);
    found.set(word, closest);
  }
  return found;
}

/**
 * Runs `search` with `q` as typed; when that finds nothing (`found` says so), again with the source words its
 * words may stand for (typos), if any word has one. The typed word wins: '파이썬' never lists look-alikes.
 */
export async function searchWithTypos<T>(
  db: Executor,
  q: string,
  search: (condition: SearchCondition) => Promise<T>,
  found: (result: T) => boolean,
): Promise<T> {
  const exact = await search(searchCondition(q));
  if (found(exact)) return exact;
  const closest = await corrections(db, q);
  const anyCorrection = [...closest.values()].some((words) => words.length > 0);
  return anyCorrection ? search(searchCondition(q, closest)) : exact;
}
