import { asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  CLASS_PAGE_SIZE,
  SEARCH_MATCHES_MAX,
  TOP_TEN_SIZE,
  type ClassSort,
  type ClassTarget,
} from '@sea/contract/classes';
import type { Database, Executor } from '../db/database.ts';
import { categories, classes, enrolments, users } from '../db/schema.ts';
import { unauthorized } from '../errors.ts';
import { classItemColumns, notDeleted, selectClassItems, type ClassRow } from './class-item.ts';
import { liveWaiting } from './class-live-facts.ts';
import type { SearchCondition } from './search-condition.ts';
import { searchWithTypos } from './search-terms.ts';
import { withSearchTimeout } from './search-timeout.ts';

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

/** One page of a list and how many classes the whole list holds (every page gives the same total). */
export type ClassPage = { rows: ClassRow[]; total: number };

const NEWEST_FIRST = [desc(classes.createdAt), desc(classes.id)];
/** The expression of `classes_rating_idx`: the mean stars, null without reviews (last). */
const RATING_AVERAGE = sql`(${classes.ratingTotal}::float8 / nullif(${classes.reviewCount}, 0))`;

const ORDERS: Record<ClassSort, SQL[]> = {
  newest: NEWEST_FIRST,
  students: [desc(classes.studentCount), ...NEWEST_FIRST],
  rating: [sql`${RATING_AVERAGE} desc nulls last`, desc(classes.reviewCount), ...NEWEST_FIRST],
};

/**
 * One page of classes and the list's total: newest first with the id breaking ties (a stable order) unless
 * `sort` says otherwise; with a search query and no `sort`, the best matches first (then most students,
 * newest). `topten` ranks by enrolled students and ignores page, category, query and sort; `enrolled` and
 * `created` need a caller.
 */
export async function listClasses(db: Database, request: ListRequest): Promise<ClassPage> {
  const { page, target, q, sort } = request;
  if (target === 'topten') {
    const rows = await selectClassItems(db)
      .where(notDeleted())
      .orderBy(...ORDERS.students)
      .limit(TOP_TEN_SIZE);
    return { rows, total: rows.length };
  }
  if (q !== undefined) return withSearchTimeout(db, (tx) => searchPage(tx, request, q));
  const where = listScope(db, request, undefined);
  const order = ORDERS[sort ?? 'newest'];
  const offset = page * CLASS_PAGE_SIZE;
  const counting = db.select({ n: count() }).from(classes).where(where);
  // Other lists walk an index in order and stop at the page.
  const [rows, [counted]] = await Promise.all([
    selectClassItems(db)
      .where(where)
      .orderBy(...order)
      .limit(CLASS_PAGE_SIZE)
      .offset(offset),
    counting,
  ]);
  return { rows, total: counted?.n ?? 0 };
}

/**
 * One page of a search: the classes in the list's scope that match every word, at most SEARCH_MATCHES_MAX of
 * them (the first found: unordered, so that the visit can stop there), ranked. The cap bounds the work
 * whatever the words: a word found in every class stops the visit at the cap instead of ranking them all, and
 * every word is found through an index of the search document (search-condition.ts). Typos are tried only
 * when the words as typed find nothing (the typed word wins: '파이썬' never lists '파이선' look-alikes), through
 * the source words they may stand for (search-terms.ts).
 */
function searchPage(db: Executor, request: ListRequest, q: string): Promise<ClassPage> {
  return searchWithTypos(
    db,
    q,
    (search) => searchPageOf(db, request, search),
    (page) => page.total > 0,
  );
}

/** One page of the classes that `search` matches (see searchPage). */
async function searchPageOf(db: Executor, request: ListRequest, search: SearchCondition): Promise<ClassPage> {
  const order = request.sort !== undefined ? ORDERS[request.sort] : [desc(search.score), ...ORDERS.students];
  // The document holds the teacher's nickname and the category: finding needs no join.
  const found = db
    .select({ id: classes.id })
    .from(classes)
    .where(listScope(db, request, search.matches))
    .limit(SEARCH_MATCHES_MAX);
  const where = inArray(classes.id, found);
  const offset = request.page * CLASS_PAGE_SIZE;
  // The ranking already visits every match: it counts them too, and only a page past the end (no row to
  // carry the count) asks again.
  const { rows, total } = await rankedPage(db, where, order, offset);
  if (total !== null) return { rows, total };
  const [counted] = await db.select({ n: count() }).from(classes).where(where);
  return { rows: [], total: counted?.n ?? 0 };
}

/**
 * One page of a search's class items and how many classes match, in one statement: first the page's ids in
 * rank order with the count of all matches (the ranking sorts every match anyway), then the items of those
 * ids alone. The item's per-class facts (next session, replays) are subqueries, so they run for the page's
 * rows only; left in the ranking query, the planner may evaluate them for every match before the sort (it
 * did while no session existed: 2 334 runs for a 12-row page). `total` is null when the page is empty: no
 * row carries the count then (none when nothing matches on the first page, so 0).
 */
async function rankedPage(
  db: Executor,
  where: SQL | undefined,
  order: SQL[],
  offset: number,
): Promise<{ rows: ClassRow[]; total: number | null }> {
  const page = db
    .select({
      classId: sql<number>`${classes.id}`.as('page_class_id'),
      position: sql<number>`row_number() over (order by ${sql.join(order, sql`, `)})`.as('page_position'),
      matched: sql<number>`count(*) over ()`.mapWith(Number).as('page_matched'),
    })
    .from(classes)
    .where(where)
    .orderBy(...order)
    .limit(CLASS_PAGE_SIZE)
    .offset(offset)
    .as('page');
  const found = await db
    .select({ ...classItemColumns, matched: page.matched })
    .from(classes)
    .innerJoin(users, eq(users.id, classes.teacherId))
    .innerJoin(categories, eq(categories.id, classes.categoryId))
    .innerJoin(page, eq(page.classId, classes.id))
    .orderBy(asc(page.position));
  const first = found[0];
  if (first === undefined) return { rows: [], total: offset === 0 ? 0 : null };
  return { rows: found.map(({ matched: _, ...row }) => row), total: Number(first.matched) };
}

/** The classes a list holds (all but `topten`): one condition shared by the page and its count. */
function listScope(
  db: Executor,
  { category, target, accountId }: ListRequest,
  matches: SQL | undefined,
): SQL | undefined {
  const inCategory = category === undefined ? undefined : eq(classes.categoryId, category);
  if (target === 'enrolled' || target === 'created') {
    if (accountId === null) throw unauthorized();
    if (target === 'created') return notDeleted(eq(classes.teacherId, accountId), inCategory, matches);
    const enrolled = db
      .select({ classId: enrolments.classId })
      .from(enrolments)
      .where(eq(enrolments.userId, accountId));
    return notDeleted(inArray(classes.id, enrolled), inCategory, matches);
  }
  // A lecture waiting for its teacher stays listed (as waiting) until its session ends or goes on.
  const live = target === 'live' ? or(eq(classes.isActive, true), liveWaiting) : undefined;
  return notDeleted(live, inCategory, matches);
}
