import { eq, not } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { classes } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { notDeleted } from '../classes/class-item.ts';

/** Whether a class is live; 404 for an unknown or deleted class. */
export async function isLive(db: Database, classId: number): Promise<boolean> {
  const [row] = await db
    .select({ active: classes.isActive })
    .from(classes)
    .where(notDeleted(eq(classes.id, classId)));
  if (row === undefined) throw notFound('class');
  return row.active;
}

/**
 * Sets the live state (`active` given: idempotent, the last write wins) or toggles it (`active` undefined)
 * in one atomic statement, and answers the resulting state.
 */
export async function setLive(db: Database, classId: number, active: boolean | undefined): Promise<boolean> {
  const [row] = await db
    .update(classes)
    .set({ isActive: active ?? not(classes.isActive) })
    .where(notDeleted(eq(classes.id, classId)))
    .returning({ active: classes.isActive });
  if (row === undefined) throw notFound('class');
  return row.active;
}
