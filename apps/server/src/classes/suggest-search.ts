import { and, desc, eq, exists, inArray, isNull, sql } from 'drizzle-orm';
import { SEARCH_MATCHES_MAX } from '@sea/contract/classes';
import {
  SUGGESTED_CLASSES_MAX,
  SUGGESTED_INSTRUCTORS_MAX,
  type SuggestedClass,
} from '@sea/contract/suggestions';
import type { Database, Executor } from '../db/database.ts';
import { categories, classes, users } from '../db/schema.ts';
import { notDeleted } from './class-item.ts';
import { containsPattern, type SearchCondition } from './search-condition.ts';
import { searchWithTypos } from './search-terms.ts';
import { withSearchTimeout } from './search-timeout.ts';

/** Suggestions as stored: an instructor's picture is a storage key (the route makes it a URL). */
export type FoundSuggestions = {
  classes: SuggestedClass[];
  instructors: { id: string; nickname: string; profileImage: string | null }[];
};

/**
 * What the search box suggests for `q`: the best classes as the search ranks them (found the same way, among
 * the first SEARCH_MATCHES_MAX matches), and instructors with a class whose nickname holds `q` (folded:
 * spaces and case do not matter), among the first SEARCH_MATCHES_MAX users whose nickname holds it: a first
 * syllable held by thousands of nicknames ('사' in every '사용자…' of 21 000) stops there instead of asking
 * for each of them whether they teach (54 ms at 21 000 users); typing on narrows it. Bounded like a search:
 * one statement each, under its timeout.
 */
export async function suggest(db: Database, q: string): Promise<FoundSuggestions> {
  return withSearchTimeout(db, async (tx) => {
    const classRows = await searchWithTypos(
      tx,
      q,
      (search) => suggestedClasses(tx, search),
      (rows) => rows.length > 0,
    );
    const teaches = tx
      .select({ one: sql`1` })
      .from(classes)
      .where(notDeleted(eq(classes.teacherId, users.id)));
    const named = tx
      .select({ id: users.id })
      .from(users)
      .where(and(isNull(users.deletedAt), sql`${users.searchNickname} like ${containsPattern(q)}`))
      .limit(SEARCH_MATCHES_MAX);
    const instructors = await tx
      .select({ id: users.id, nickname: users.nickname, profileImage: users.profileImage })
      .from(users)
      .where(and(inArray(users.id, named), exists(teaches)))
      .orderBy(users.nickname)
      .limit(SUGGESTED_INSTRUCTORS_MAX);
    return { classes: classRows, instructors };
  });
}

/** The best SUGGESTED_CLASSES_MAX classes among the first SEARCH_MATCHES_MAX that `search` matches. */
function suggestedClasses(tx: Executor, search: SearchCondition): Promise<SuggestedClass[]> {
  const found = tx
    .select({ id: classes.id })
    .from(classes)
    .where(notDeleted(search.matches))
    .limit(SEARCH_MATCHES_MAX);
  return tx
    .select({
      id: classes.id,
      name: classes.name,
      teacher_nickname: users.nickname,
      category: categories.name,
    })
    .from(classes)
    .innerJoin(users, eq(users.id, classes.teacherId))
    .innerJoin(categories, eq(categories.id, classes.categoryId))
    .where(inArray(classes.id, found))
    .orderBy(desc(search.score), desc(classes.studentCount), desc(classes.createdAt), desc(classes.id))
    .limit(SUGGESTED_CLASSES_MAX);
}
