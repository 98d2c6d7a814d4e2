import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { REFRESH_TOKEN_TTL_S, type TokenPair } from '@sea/contract/auth';
import type { Database, Executor } from '../db/database.ts';
import { refreshTokens } from '../db/schema.ts';
import { unauthorized } from '../errors.ts';
import type { Tokens } from '../plugins/tokens.ts';

const REFRESH_TTL_MS = REFRESH_TOKEN_TTL_S * 1000;

/**
 * A new login: an access token and the first refresh token of a new family. The family may be rotated for
 * REFRESH_TOKEN_TTL_S from now and not a second longer (the absolute limit).
 */
export async function issueTokenPair(
  db: Database,
  tokens: Tokens,
  accountId: string,
  now = new Date(),
): Promise<TokenPair> {
  const issued = {
    jti: randomUUID(),
    accountId,
    family: randomUUID(),
    familyExpiresAt: new Date(now.getTime() + REFRESH_TTL_MS),
  };
  await record(db, { ...issued, now });
  return sign(tokens, issued);
}

/**
 * Exchanges a refresh token for a new pair (rotation). The old token is spent in the same statement that
 * checks it, so it works once. Presenting a token that was already spent means it leaked (or a client kept a
 * stale copy): the whole family is revoked and every token of that login stops working. 401 in every failure.
 */
export async function rotateRefreshToken(
  db: Database,
  tokens: Tokens,
  refreshToken: string,
  now = new Date(),
): Promise<TokenPair> {
  const claims = await tokens.verifyRefresh(refreshToken);
  const jti = randomUUID();
  // Spending the old token and recording the new one commit together: a failure leaves the old one usable.
  const spent = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(refreshTokens)
      .set({ revokedAt: now, replacedBy: jti })
      .where(
        and(
          eq(refreshTokens.id, claims.jti),
          eq(refreshTokens.familyId, claims.family),
          eq(refreshTokens.accountId, claims.sub),
          isNull(refreshTokens.revokedAt),
          gt(refreshTokens.expiresAt, now),
          gt(refreshTokens.familyExpiresAt, now),
        ),
      )
      .returning();
    if (row !== undefined) {
      await record(tx, {
        jti,
        accountId: row.accountId,
        family: row.familyId,
        familyExpiresAt: row.familyExpiresAt,
        now,
      });
    }
    return row;
  });
  if (spent === undefined) {
    await revokeFamilyIfReused(db, claims.jti, now);
    throw unauthorized(
      '로그인이 만료되었어요. 다시 로그인해 주세요.',
      'The refresh token is no longer valid.',
    );
  }
  return sign(tokens, {
    jti,
    accountId: spent.accountId,
    family: spent.familyId,
    familyExpiresAt: spent.familyExpiresAt,
  });
}

/** Revokes every refresh token of an account (withdrawal): all its logins end. */
export async function revokeAccountTokens(db: Database, accountId: string, now = new Date()): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.accountId, accountId), isNull(refreshTokens.revokedAt)));
}

async function revokeFamilyIfReused(db: Database, jti: string, now: Date): Promise<void> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.id, jti)).limit(1);
  if (row === undefined || row.revokedAt === null) return;
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
}

type Issued = { jti: string; accountId: string; family: string; familyExpiresAt: Date };

async function record(executor: Executor, input: Issued & { now: Date }): Promise<void> {
  const expiresAt = new Date(Math.min(input.now.getTime() + REFRESH_TTL_MS, input.familyExpiresAt.getTime()));
  await executor.insert(refreshTokens).values({
    id: input.jti,
    familyId: input.family,
    accountId: input.accountId,
    expiresAt,
    familyExpiresAt: input.familyExpiresAt,
  });
}

async function sign(tokens: Tokens, input: Issued): Promise<TokenPair> {
  const [accessToken, refreshToken] = await Promise.all([
    tokens.signAccess(input.accountId),
    tokens.signRefresh({
      sub: input.accountId,
      jti: input.jti,
      family: input.family,
      notAfter: input.familyExpiresAt,
    }),
  ]);
  return { accessToken, refreshToken };
}
