import { CATEGORY_NAMES } from '@sea/contract/categories';
import type { Database } from './database.ts';
import { categories } from './schema.ts';

/** Inserts the 25 categories (ids 1..25 in contract order); idempotent, so it runs at every start. */
export async function seedCategories(db: Database): Promise<void> {
  await db
    .insert(categories)
    .values(CATEGORY_NAMES.map((name, index) => ({ id: index + 1, name })))
    .onConflictDoNothing();
}
