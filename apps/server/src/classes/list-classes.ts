import { desc, eq } from 'drizzle-orm';
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

/**
 * One page of classes, newest first with the id breaking ties (a stable order), in one query. `topten` ranks
 * by enrolled students and ignores page and category; `enrolled` and `created` need a caller.
 */
export async function listClasses(db: Database, request: ListRequest): Promise<ClassRow[]> {
  const { page, category, target, accountId } = request;
  const newestFirst = [desc(classes.createdAt), desc(classes.id)];
  if (target === 'topten') {
    return selectClassItems(db)
      .where(notDeleted())
      .orderBy(desc(classes.studentCount), ...newestFirst)
      .limit(TOP_TEN_SIZE);
  }
  const inCategory = category === undefined ? undefined : eq(classes.categoryId, category);
  const offset = page * CLASS_PAGE_SIZE;
  if (target === 'enrolled' || target === 'created') {
    if (accountId === null) throw unauthorized();
    if (target === 'created') {
      return selectClassItems(db)
        .where(notDeleted(eq(classes.teacherId, accountId), inCategory))
        .orderBy(...newestFirst)
        .limit(CLASS_PAGE_SIZE)
        .offset(offset);
    }
    return selectClassItems(db)
      .innerJoin(enrolments, eq(enrolments.classId, classes.id))
      .where(notDeleted(eq(enrolments.userId, accountId), inCategory))
      .orderBy(...newestFirst)
      .limit(CLASS_PAGE_SIZE)
      .offset(offset);
  }
  const live = target === 'live' ? eq(classes.isActive, true) : undefined;
  return selectClassItems(db)
    .where(notDeleted(live, inCategory))
    .orderBy(...newestFirst)
    .limit(CLASS_PAGE_SIZE)
    .offset(offset);
}
