import { count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { CLASS_PAGE_SIZE, TOP_TEN_SIZE, type ClassTarget } from '@sea/contract/classes';
import type { Database } from '../db/database.ts';
import { classes, enrolments } from '../db/schema.ts';
import { unauthorized } from '../errors.ts';
import { notDeleted, selectClassItems, type ClassRow } from './class-item.ts';

export type ListRequest = {
  page: number;
  category?: number | undefined;
  target?: ClassTarget | undefined;
  /** The caller, when a valid token came. */
  accountId: string | null;
};

/** One page of a list and how many classes the whole list holds (every page gives the same total). */
export type ClassPage = { rows: ClassRow[]; total: number };

/**
 * One page of classes, newest first with the id breaking ties (a stable order), and the list's total.
 * `topten` ranks by enrolled students and ignores page and category; `enrolled` and `created` need a caller.
 */
export async function listClasses(db: Database, request: ListRequest): Promise<ClassPage> {
  const { page, target } = request;
  const newestFirst = [desc(classes.createdAt), desc(classes.id)];
  if (target === 'topten') {
    const rows = await selectClassItems(db)
      .where(notDeleted())
      .orderBy(desc(classes.studentCount), ...newestFirst)
      .limit(TOP_TEN_SIZE);
    return { rows, total: rows.length };
  }
  const where = listScope(db, request);
  const [rows, [counted]] = await Promise.all([
    selectClassItems(db)
      .where(where)
      .orderBy(...newestFirst)
      .limit(CLASS_PAGE_SIZE)
      .offset(page * CLASS_PAGE_SIZE),
    db.select({ n: count() }).from(classes).where(where),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

/** The classes a list holds (all but `topten`): one condition shared by the page and its count. */
function listScope(db: Database, { category, target, accountId }: ListRequest): SQL | undefined {
  const inCategory = category === undefined ? undefined : eq(classes.categoryId, category);
  if (target === 'enrolled' || target === 'created') {
    if (accountId === null) throw unauthorized();
    if (target === 'created') return notDeleted(eq(classes.teacherId, accountId), inCategory);
    const enrolled = db
      .select({ classId: enrolments.classId })
      .from(enrolments)
      .where(eq(enrolments.userId, accountId));
    return notDeleted(inArray(classes.id, enrolled), inCategory);
  }
  const live = target === 'live' ? eq(classes.isActive, true) : undefined;
  return notDeleted(live, inCategory);
}
