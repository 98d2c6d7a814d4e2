import { desc, sql } from 'drizzle-orm';
import { searchWords } from '@sea/contract/classes';
import type { Executor } from '../db/database.ts';
import { searchTerms } from '../db/schema.ts';
import { type Correction, type Corrections, folded, isInitials } from './search-condition.ts';

/** How many source words one typed word may stand for, the closest first. */
const CORRECTIONS_MAX = 5;

/**
 * For each word of `query` that may be a typo (two characters or more, not 초성), the source words whose jamo it
 * is close to: pg_trgm word similarity at its threshold (0.6) against `search_terms` (migration 0023), the
 * words of every class's title, teacher's nickname and category. A few thousand short rows on a trigram index
 * stand in for judging the similarity of every class's source (25-60 ms at 100 000 classes).
 */
export async function corrections(db: Executor, query: string): Promise<Corrections> {
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

/** True when some word has a correction: otherwise trying typos would find nothing new. */
export function anyCorrection(found: Corrections): boolean {
  return [...found.values()].some((closest) => closest.length > 0);
}
