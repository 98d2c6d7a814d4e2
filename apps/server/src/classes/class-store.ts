import { eq, sql } from 'drizzle-orm';
import { CLASS_MESSAGES, type ClassCreateSchema, type ClassUpdateSchema } from '@sea/contract/classes';
import type { z } from 'zod';
import type { Database, Executor } from '../db/database.ts';
import { categories, classes } from '../db/schema.ts';
import { invalid, notFound } from '../errors.ts';
import { findClassItem, notDeleted, type ClassRow } from './class-item.ts';

export type NewClass = z.output<typeof ClassCreateSchema>;
export type ClassChanges = z.output<typeof ClassUpdateSchema>;

async function requireCategory(db: Executor, categoryId: number): Promise<void> {
  if (!(await categoryExists(db, categoryId))) throw invalid({ categoryId: CLASS_MESSAGES.categoryRequired });
}

/** Creates a class taught by `teacherId` (not live, no students) and answers its item. */
export async function createClass(
  db: Database,
  teacherId: string,
  input: NewClass,
  bannerImage: string | null,
): Promise<ClassRow> {
  await requireCategory(db, input.categoryId);
  const [created] = await db
    .insert(classes)
    .values({
      teacherId,
      categoryId: input.categoryId,
      name: input.name,
      object: input.object,
      description: input.description,
      instructorInfo: input.instructorInfo ?? null,
      prerequisite: input.prerequisite ?? null,
      announcement: input.announcement ?? null,
      bannerImage,
    })
    .returning({ id: classes.id });
  const row = created && (await findClassItem(db, created.id));
  if (!row) throw new Error('created class not found');
  return row;
}

/**
 * Applies the fields present in `changes` (null clears an optional text) and, when given, a new banner.
 * Answers the updated item and the banner key it replaced (for the caller to remove once committed).
 */
export async function updateClass(
  db: Database,
  classId: number,
  changes: ClassChanges,
  bannerImage: string | undefined,
): Promise<{ row: ClassRow; replacedBanner: string | null }> {
  if (changes.categoryId !== undefined) await requireCategory(db, changes.categoryId);
  const values: Partial<typeof classes.$inferInsert> = {};
  for (const key of ['categoryId', 'name', 'object', 'description'] as const) {
    if (changes[key] !== undefined) Object.assign(values, { [key]: changes[key] });
  }
  for (const key of ['instructorInfo', 'prerequisite', 'announcement'] as const) {
    if (changes[key] !== undefined) values[key] = changes[key];
  }
  if (bannerImage !== undefined) values.bannerImage = bannerImage;
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ bannerImage: classes.bannerImage })
      .from(classes)
      .where(notDeleted(eq(classes.id, classId)))
      .for('update');
    if (before === undefined) throw notFound('class');
    if (Object.keys(values).length > 0) await tx.update(classes).set(values).where(eq(classes.id, classId));
    const row = await findClassItem(tx, classId);
    if (row === null) throw notFound('class');
    const replaced =
      bannerImage !== undefined && before.bannerImage !== bannerImage ? before.bannerImage : null;
    return { row, replacedBanner: replaced };
  });
}

/** Soft-deletes a class (it also stops being live); 404 when it is unknown or already deleted. */
export async function deleteClass(db: Database, classId: number): Promise<void> {
  const deleted = await db
    .update(classes)
    .set({ deletedAt: sql`now()`, isActive: false })
    .where(notDeleted(eq(classes.id, classId)))
    .returning({ id: classes.id });
  if (deleted.length === 0) throw notFound('class');
}

/** True when a category with this id exists. */
export async function categoryExists(db: Executor, categoryId: number): Promise<boolean> {
  const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId));
  return row !== undefined;
}
