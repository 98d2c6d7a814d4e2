import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { loginCodes } from '../db/schema.ts';

/** How long a dev provider code may be exchanged (the original API spec section 2). */
export const DEV_CODE_TTL_MS = 5 * 60 * 1000;

/** A test identity of the dev provider: digits, like a Kakao id. */
export const DEV_IDENTITY_PATTERN = /^[0-9]{1,19}$/;

function hashOf(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/**
 * Issues a single-use code for dev identity `kakaoId`. Only its hash is stored, so reading the table does not
 * let anyone log in. Expired codes are swept on the way.
 */
export async function issueDevCode(db: Database, kakaoId: string, now = new Date()): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await db.delete(loginCodes).where(lt(loginCodes.expiresAt, now));
  await db.insert(loginCodes).values({
    codeHash: hashOf(code),
    provider: 'dev',
    providerUserId: kakaoId,
    expiresAt: new Date(now.getTime() + DEV_CODE_TTL_MS),
  });
  return code;
}

/**
 * Spends a dev code and answers its identity, or null when the code is unknown, used or expired. One UPDATE
 * does the check and the spending, so two simultaneous exchanges of one code cannot both succeed.
 */
export async function redeemDevCode(db: Database, code: string, now = new Date()): Promise<string | null> {
  const [row] = await db
    .update(loginCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(loginCodes.codeHash, hashOf(code)),
        eq(loginCodes.provider, 'dev'),
        isNull(loginCodes.usedAt),
        gt(loginCodes.expiresAt, now),
      ),
    )
    .returning({ providerUserId: loginCodes.providerUserId });
  return row?.providerUserId ?? null;
}
