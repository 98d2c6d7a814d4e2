import { and, asc, desc, eq, ilike } from 'drizzle-orm';
import { MAX_MATERIAL_PAGES, type MaterialKind, type MaterialState } from '@sea/contract/materials';
import { containsPattern } from '../classes/search-condition.ts';
import type { Executor } from '../db/database.ts';
import { materialPages, materials } from '../db/schema.ts';

export type MaterialRow = typeof materials.$inferSelect;
export type MaterialPageRow = typeof materialPages.$inferSelect;

/** Most materials one class's list answers. */
export const MAX_MATERIALS_LISTED = 500;

/** A new material, `converting` until its job has rendered every page. */
export async function insertMaterial(
  db: Executor,
  values: { classId: number; name: string; kind: MaterialKind; key: string },
): Promise<MaterialRow> {
  const [row] = await db.insert(materials).values(values).returning();
  if (!row) throw new Error('material insert returned nothing');
  return row;
}

/** A class's materials, newest first. */
export async function listMaterials(db: Executor, classId: number): Promise<MaterialRow[]> {
  return db
    .select()
    .from(materials)
    .where(eq(materials.classId, classId))
    .orderBy(desc(materials.id))
    .limit(MAX_MATERIALS_LISTED);
}

/** A material of a class (with `classId`) or of any class, or null. */
export async function findMaterial(
  db: Executor,
  materialId: number,
  classId?: number,
): Promise<MaterialRow | null> {
  const where =
    classId === undefined
      ? eq(materials.id, materialId)
      : and(eq(materials.id, materialId), eq(materials.classId, classId));
  const [row] = await db.select().from(materials).where(where);
  return row ?? null;
}

/** A material's pages, in order (none until it is ready). */
export async function pagesOf(db: Executor, materialId: number): Promise<MaterialPageRow[]> {
  return db
    .select()
    .from(materialPages)
    .where(eq(materialPages.materialId, materialId))
    .orderBy(asc(materialPages.number));
}

/**
 * The numbers of a material's pages whose text holds every word (as any part of a word, any case), in order:
 * one pass over its pages' rows (at most MAX_MATERIAL_PAGES), never over other materials.
 */
export async function pagesWithWords(
  db: Executor,
  materialId: number,
  words: readonly string[],
): Promise<number[]> {
  const rows = await db
    .select({ number: materialPages.number })
    .from(materialPages)
    .where(
      and(
        eq(materialPages.materialId, materialId),
        ...words.map((word) => ilike(materialPages.text, containsPattern(word))),
      ),
    )
    .orderBy(asc(materialPages.number))
    .limit(MAX_MATERIAL_PAGES);
  return rows.map((row) => row.number);
}

/** Changes a material's name, sharing, or conversion state; answers the new row (null: it is gone). */
export async function updateMaterial(
  db: Executor,
  materialId: number,
  set: Partial<{
    name: string;
    downloadable: boolean;
    state: MaterialState;
    progress: number;
    pages: number;
    error: string | null;
  }>,
): Promise<MaterialRow | null> {
  const [row] = await db.update(materials).set(set).where(eq(materials.id, materialId)).returning();
  return row ?? null;
}

/** Stores a converted material's pages and makes it `ready`, in one transaction (the caller's). */
export async function markReady(
  db: Executor,
  materialId: number,
  pages: Omit<MaterialPageRow, 'materialId'>[],
): Promise<void> {
  await db.delete(materialPages).where(eq(materialPages.materialId, materialId));
  for (let at = 0; at < pages.length; at += 100) {
    const chunk = pages.slice(at, at + 100).map((page) => ({ ...page, materialId }));
    await db.insert(materialPages).values(chunk);
  }
  await db
    .update(materials)
    .set({ state: 'ready', progress: 100, pages: pages.length, error: null })
    .where(eq(materials.id, materialId));
}

/** Deletes a material and its pages' rows (its files are the caller's to remove). */
export async function deleteMaterial(db: Executor, materialId: number): Promise<void> {
  await db.delete(materialPages).where(eq(materialPages.materialId, materialId));
  await db.delete(materials).where(eq(materials.id, materialId));
}
