import { and, eq, isNull, sql } from 'drizzle-orm';
import { revokeAccountTokens } from '../auth/token-pairs.ts';
import type { Database } from '../db/database.ts';
import { classes, users } from '../db/schema.ts';
import { notFound } from '../errors.ts';

/**
 * Withdraws a user (soft delete): the user row is marked deleted, the classes they teach are deleted and no
 * longer live, their enrolments are removed with each class's student count lowered in the same transaction,
 * and every login of the account ends. The account stays, so the same Kakao user can sign up again. Answers
 * the ids of the classes deleted (their recordings go next).
 */
export async function withdraw(db: Database, accountId: string, now = new Date()): Promise<number[]> {
  const deleted = await db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ deletedAt: now })
      .where(and(eq(users.id, accountId), isNull(users.deletedAt)))
      .returning({ id: users.id });
    if (user === undefined) throw notFound('user');
    const taught = await tx
      .update(classes)
      .set({ deletedAt: now, isActive: false })
      .where(and(eq(classes.teacherId, accountId), isNull(classes.deletedAt)))
      .returning({ id: classes.id });
    await tx.execute(sql`
      with removed as (delete from enrolments where user_id = ${accountId} returning class_id),
           counts as (select class_id, count(*)::int as n from removed group by class_id)
      update classes set student_count = classes.student_count - counts.n
      from counts where classes.id = counts.class_id`);
    return taught.map((row) => row.id);
  });
  await revokeAccountTokens(db, accountId, now);
  return deleted;
}
