import { desc, eq, sql, type SQL } from 'drizzle-orm';
import { CLASS_PAGE_SIZE, TOP_TEN_SIZE, type ClassSort, type ClassTarget } from '@sea/contract/classes';
import type { Database } from '../db/database.ts';
import { classes, enrolments } from '../db/schema.ts';
import { unauthorized } from '../errors.ts';
import { notDeleted, selectClassItems, type ClassRow } from './class-item.ts';
import { searchCondition } from './search-condition.ts';

export type ListRequest = {
  page: number;
  category?: number | undefined;
  target?: ClassTarget | undefined;
  /** A search query (non-blank), or undefined for no search. */
  q?: string | undefined;
  sort?: ClassSort | undefined;
  /** The caller, when a valid token came. */
  accountId: string | null;
};

const NEWEST_FIRST = [desc(classes.createdAt), desc(classes.id)];
/** The expression of `classes_rating_idx`: the mean stars, null without reviews (last). */
const RATING_AVERAGE = sql`(${classes.ratingTotal}::float8 / nullif(${classes.reviewCount}, 0))`;

const ORDERS: Record<ClassSort, SQL[]> = {
  newest: NEWEST_FIRST,
  students: [desc(classes.studentCount), ...NEWEST_FIRST],
  rating: [sql`${RATING_AVERAGE} desc nulls last`, desc(classes.reviewCount), ...NEWEST_FIRST],
};

/**
 * One page of classes in one query: newest first with the id breaking ties (a stable order) unless `sort`
 * says otherwise; with a search query and no `sort`, the best matches first (then most students, newest).
 * `topten` ranks by enrolled students and ignores page, category, query and sort; `enrolled` and `created`
 * need a caller.
 */
export async function listClasses(db: Database, request: ListRequest): Promise<ClassRow[]> {
  const { page, category, target, q, sort, accountId } = request;
  if (target === 'topten') {
    return selectClassItems(db)
      .where(notDeleted())
      .orderBy(...ORDERS.students)
      .limit(TOP_TEN_SIZE);
  }
  const search = q === undefined ? undefined : searchCondition(q);
  const order =
    sort !== undefined
      ? ORDERS[sort]
      : search !== undefined
        ? [desc(search.score), ...ORDERS.students]
        : ORDERS.newest;
  const inCategory = category === undefined ? undefined : eq(classes.categoryId, category);
  const conditions = [inCategory, search?.matches];
  const offset = page * CLASS_PAGE_SIZE;
  if (target === 'enrolled' || target === 'created') {
    if (accountId === null) throw unauthorized();
    if (target === 'created') {
      return selectClassItems(db)
        .where(notDeleted(eq(classes.teacherId, accountId), ...conditions))
        .orderBy(...order)
        .limit(CLASS_PAGE_SIZE)
        .offset(offset);
    }
    return selectClassItems(db)
      .innerJoin(enrolments, eq(enrolments.classId, classes.id))
      .where(notDeleted(eq(enrolments.userId, accountId), ...conditions))
      .orderBy(...order)
      .limit(CLASS_PAGE_SIZE)
      .offset(offset);
  }
  const live = target === 'live' ? eq(classes.isActive, true) : undefined;
  return selectClassItems(db)
    .where(notDeleted(live, ...conditions))
    .orderBy(...order)
    .limit(CLASS_PAGE_SIZE)
    .offset(offset);
}
