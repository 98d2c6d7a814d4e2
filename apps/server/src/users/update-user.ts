import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { users } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { userConflict } from './user-errors.ts';

/**
 * Fields to change; an absent field is kept, `email: null` clears the address, `profileImage: null` the photo.
 */
export type UserChanges = {
  nickname?: string;
  email?: string | null;
  profileImage?: string | null;
  introduction?: string | null;
};

type UserRow = typeof users.$inferSelect;

/**
 * Applies `changes` to a registered user. A nickname or e-mail used by another user is a 409 (from the unique
 * indexes). Answers the updated user and the avatar key it replaced, which the caller removes after success.
 */
export async function updateUser(
  db: Database,
  accountId: string,
  changes: UserChanges,
): Promise<{ user: UserRow; replacedImage: string | null }> {
  const values: Partial<
    Pick<UserRow, 'nickname' | 'email' | 'profileImage' | 'introduction'> & { nicknameClash: SQL }
  > = {};
  if (changes.nickname !== undefined) {
    values.nickname = changes.nickname;
    // A changed nickname ends a look-alike mark of the migration (the unique index decides again).
    values.nicknameClash = sql`${users.nicknameClash} and ${users.nickname} = ${changes.nickname}`;
  }
  if (changes.email !== undefined) values.email = changes.email;
  if (changes.profileImage !== undefined) values.profileImage = changes.profileImage;
  if (changes.introduction !== undefined) values.introduction = changes.introduction;
  try {
    return await db.transaction(async (tx) => {
      const active = and(eq(users.id, accountId), isNull(users.deletedAt));
      const [before] = await tx.select().from(users).where(active).for('update');
      if (before === undefined) throw notFound('user');
      if (Object.keys(values).length === 0) return { user: before, replacedImage: null };
      const [user] = await tx.update(users).set(values).where(active).returning();
      if (user === undefined) throw notFound('user');
      const replaced = values.profileImage !== undefined ? before.profileImage : null;
      return { user, replacedImage: replaced === user.profileImage ? null : replaced };
    });
  } catch (error) {
    throw userConflict(error);
  }
}
