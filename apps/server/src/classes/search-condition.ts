import { and, sql, type SQL } from 'drizzle-orm';
import { searchWords } from '@sea/contract/classes';
import { categories, classes, users } from '../db/schema.ts';

/** A search turned into SQL over classes joined with their teacher and category: which match, how well. */
export type SearchCondition = { matches: SQL; score: SQL<number> };

/** How much a word found in each place counts towards a class's score. */
const WEIGHTS = { name: 8, instructor: 4, category: 2, description: 1 } as const;

/** pg_trgm reads no trigram from a shorter word inside `%...%`: its indexes cannot find such a word. */
const TRIGRAM_WORD_MIN = 3;

/** `%word%` for ILIKE, with the pattern characters of the word taken literally. */
export function containsPattern(word: string): string {
  return `%${word.replace(/[\\%_]/gu, (mark) => `\\${mark}`)}%`;
}

/**
 * Every word of the query must appear (as any part of a word, so '드로' finds '드로잉') in the class's title,
 * description, category or teacher's nickname, read from the row being visited (the class joined with its
 * teacher and category). One condition per word on that one row, never a subquery per word: a subquery per
 * word let the planner pick, by the table's statistics, a plan that ran each one once per class (56 s for
 * five one-syllable words on 10 000 classes). The score adds, per word, the weight of each place it appears
 * in, then the title's trigram similarity to the whole query breaks ties between titles that contain it
 * equally (a closer title first).
 */
export function searchCondition(query: string): SearchCondition {
  const words = searchWords(query);
  const perWord = words.map((word) => {
    const pattern = containsPattern(word);
    return {
      // Title and description as one text: the expression of the trigram index `classes_search_idx`.
      matches: sql`((${classes.name} || ' ' || ${classes.description}) ilike ${pattern}
        or ${users.nickname} ilike ${pattern} or ${categories.name} ilike ${pattern})`,
      score: sql`(case when ${classes.name} ilike ${pattern} then ${WEIGHTS.name} else 0 end
        + case when ${users.nickname} ilike ${pattern} then ${WEIGHTS.instructor} else 0 end
        + case when ${categories.name} ilike ${pattern} then ${WEIGHTS.category} else 0 end
        + case when ${classes.description} ilike ${pattern} then ${WEIGHTS.description} else 0 end)`,
    };
  });
  const total = sql.join(
    perWord.map(({ score }) => score),
    sql` + `,
  );
  return {
    matches: and(indexedMatches(words), ...perWord.map(({ matches }) => matches)) as SQL,
    score: sql<number>`(${total} + similarity(${classes.name}, ${query.trim()}))`,
  };
}

/**
 * For a query with a word of TRIGRAM_WORD_MIN characters or more, the ids of the classes that hold its longest
 * word, found through the trigram indexes (`classes_search_idx` on title and description,
 * `users_nickname_search_idx`, and the few categories): a rare word then costs a few index pages instead of a
 * pass over every class. One such set per query, never one per word. Undefined when every word is shorter
 * (the search then visits classes until it has SEARCH_MATCHES_MAX matches).
 */
function indexedMatches(words: string[]): SQL | undefined {
  const longest = words.reduce<string | undefined>(
    (best, word) => (best === undefined || [...word].length > [...best].length ? word : best),
    undefined,
  );
  if (longest === undefined || [...longest].length < TRIGRAM_WORD_MIN) return undefined;
  const pattern = containsPattern(longest);
  return sql`${classes.id} in (
    select c.id from classes c
      where c.deleted_at is null and (c.name || ' ' || c.description) ilike ${pattern}
    union all
    select c.id from classes c
      where c.deleted_at is null and c.teacher_id in (select u.id from users u where u.nickname ilike ${pattern})
    union all
    select c.id from classes c
      where c.deleted_at is null and c.category_id in (select k.id from categories k where k.name ilike ${pattern}))`;
}
