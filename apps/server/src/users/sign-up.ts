import { eq } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { accounts, users } from '../db/schema.ts';
import { unauthorized } from '../errors.ts';
import { alreadyRegistered, userConflict } from './user-errors.ts';

export type SignUpInput = { nickname: string; email: string | null; profileImage: string | null };

type UserRow = typeof users.$inferSelect;

/**
 * Registers the account as a user, or revives its withdrawn user with the new details. Uniqueness is left to
 * the database's unique indexes, so simultaneous sign-ups with one nickname end in exactly one success; the
 * others get a 409. Answers the user and the withdrawn user's old avatar key, which the caller removes.
 */
export async function signUp(
  db: Database,
  accountId: string,
  input: SignUpInput,
): Promise<{ user: UserRow; replacedImage: string | null }> {
  // The contract's schema gave the nickname in NFC; a revived row may have been marked as a look-alike.
  const values = {
    nickname: input.nickname,
    nicknameClash: false,
    email: input.email,
    profileImage: input.profileImage,
  };
  try {
    return await db.transaction(async (tx) => {
      const [account] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
      if (account === undefined)
        throw unauthorized('로그인 정보를 찾을 수 없어요. 다시 로그인해 주세요.', 'Unknown account.');
      const [existing] = await tx.select().from(users).where(eq(users.id, accountId)).for('update');
      if (existing === undefined) {
        const [user] = await tx
          .insert(users)
          .values({ id: accountId, ...values })
          .returning();
        if (user === undefined) throw new Error('insert returned no row');
        return { user, replacedImage: null };
      }
      if (existing.deletedAt === null) throw alreadyRegistered();
      // Signing up again after withdrawal: the same row, fresh details and a fresh join date.
      const [user] = await tx
        .update(users)
        .set({ ...values, createdAt: new Date(), deletedAt: null })
        .where(eq(users.id, accountId))
        .returning();
      if (user === undefined) throw new Error('update returned no row');
      return { user, replacedImage: existing.profileImage };
    });
  } catch (error) {
    throw userConflict(error);
  }
}
