import { and, sql, type SQL } from 'drizzle-orm';
import { searchWords } from '@sea/contract/classes';
import { categories, classes, users } from '../db/schema.ts';

/** A search turned into SQL: the rows that match, and how well (higher first). */
export type SearchCondition = { matches: SQL; score: SQL<number> };

/** How much a word found in each place counts towards a class's score. */
const WEIGHTS = { name: 8, instructor: 4, category: 2, description: 1 } as const;

/** `%word%` for ILIKE, with the pattern characters of the word taken literally. */
export function containsPattern(word: string): string {
  return `%${word.replace(/[\\%_]/gu, (mark) => `\\${mark}`)}%`;
}

/**
 * Every word of the query must appear (as any part of a word, so '드로' finds '드로잉') in the class's title,
 * description, category or teacher's nickname. The title and description are matched as one text, the
 * expression of the trigram index `classes_search_idx`; the nickname has its own (`users_nickname_search_idx`).
 * The score adds, per word, the weight of each place it appears in, then the title's trigram similarity to the
 * whole query breaks ties between titles that contain it equally (a closer title first).
 */
export function searchCondition(query: string): SearchCondition {
  const words = searchWords(query);
  const perWord = words.map((word) => {
    const pattern = containsPattern(word);
    return {
      // The ids of the classes that match, gathered per place so each part can use its own index (an OR
      // across the joined tables would leave the planner only a scan of every class).
      matches: sql`${classes.id} in (
        select c.id from classes c
          where c.deleted_at is null and (c.name || ' ' || c.description) ilike ${pattern}
        union all
        select c.id from classes c join users u on u.id = c.teacher_id
          where c.deleted_at is null and u.nickname ilike ${pattern}
        union all
        select c.id from classes c join categories k on k.id = c.category_id
          where c.deleted_at is null and k.name ilike ${pattern})`,
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
    matches: and(...perWord.map(({ matches }) => matches)) as SQL,
    score: sql<number>`(${total} + similarity(${classes.name}, ${query.trim()}))`,
  };
}
