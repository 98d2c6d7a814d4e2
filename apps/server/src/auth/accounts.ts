import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { AuthProvider } from '@sea/contract/auth';
import type { Database } from '../db/database.ts';
import { accounts } from '../db/schema.ts';

/**
 * The account id of a provider identity, creating the account on its first login. The unique
 * (provider, provider_user_id) key makes simultaneous first logins end in one account.
 */
export async function accountFor(
  db: Database,
  provider: AuthProvider,
  providerUserId: string,
): Promise<string> {
  await db
    .insert(accounts)
    .values({ id: randomUUID(), provider, providerUserId })
    .onConflictDoNothing({ target: [accounts.provider, accounts.providerUserId] });
  const [account] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.provider, provider), eq(accounts.providerUserId, providerUserId)))
    .limit(1);
  if (account === undefined) throw new Error('account vanished right after its insert');
  return account.id;
}
