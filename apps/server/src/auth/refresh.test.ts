import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenPairSchema } from '@sea/contract/auth';
import { refreshTokens } from '../db/schema.ts';
import { expectError } from '../../test/expect-envelope.ts';
import { buildTestApp } from '../../test/helper.ts';
import { devLogin } from '../../test/login.ts';
import { createTokens } from '../plugins/tokens.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

function refresh(refreshToken: unknown) {
  return app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
}

describe('POST /api/auth/refresh', () => {
  it('rotates: answers a new bare pair for the same account, and the old token stops working', async () => {
    const login = await devLogin(app, '100');
    const response = await refresh(login.refreshToken);
    expect(response.statusCode).toBe(200);
    const rotated = TokenPairSchema.parse(response.json());
    expect(rotated.refreshToken).not.toBe(login.refreshToken);
    expect((await app.tokens.verifyAccess(rotated.accessToken)).sub).toBe(
      (await app.tokens.verifyAccess(login.accessToken)).sub,
    );
    // the new refresh token keeps working, each one once
    const next = TokenPairSchema.parse((await refresh(rotated.refreshToken)).json());
    expect((await refresh(next.refreshToken)).statusCode).toBe(200);
  });

  it('reuse of a rotated token revokes the whole family, and only that family', async () => {
    const stolen = await devLogin(app, '200');
    const otherLogin = await devLogin(app, '200');
    const legit = TokenPairSchema.parse((await refresh(stolen.refreshToken)).json());

    expectError(await refresh(stolen.refreshToken), 401); // the thief (or a stale tab) replays it
    expectError(await refresh(legit.refreshToken), 401); // the whole login is over
    const { familyId } = await familyOf(legit.refreshToken);
    const rows = await app.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, familyId));
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);

    expect((await refresh(otherLogin.refreshToken)).statusCode).toBe(200); // another login is untouched
  });

  it('two simultaneous refreshes with one token: one pair, and the family is revoked', async () => {
    const login = await devLogin(app, '300');
    const answers = await Promise.all([refresh(login.refreshToken), refresh(login.refreshToken)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
  });

  it("stops at the family's absolute limit even for an unspent token", async () => {
    const login = await devLogin(app, '400');
    const { familyId } = await familyOf(login.refreshToken);
    await app.db
      .update(refreshTokens)
      .set({ familyExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.familyId, familyId));
    expectError(await refresh(login.refreshToken), 401);
  });

  it('keeps the family limit through rotations', async () => {
    const login = await devLogin(app, '450');
    const before = await familyOf(login.refreshToken);
    const rotated = TokenPairSchema.parse((await refresh(login.refreshToken)).json());
    const after = await familyOf(rotated.refreshToken);
    expect(after.familyId).toBe(before.familyId);
    expect(after.familyExpiresAt.getTime()).toBe(before.familyExpiresAt.getTime());
    expect(after.expiresAt.getTime()).toBeLessThanOrEqual(before.familyExpiresAt.getTime());
  });

  it('refuses an access token as a refresh token', async () => {
    const login = await devLogin(app, '500');
    expectError(await refresh(login.accessToken), 401);
  });

  it('refuses a refresh token as an access token on a bearer route', async () => {
    const login = await devLogin(app, '600');
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/signup',
      headers: { authorization: `Bearer ${login.refreshToken}` },
    });
    expectError(response, 401);
  });

  it('refuses a token signed with another secret, garbage and a missing token', async () => {
    const foreign = createTokens('another-secret-of-at-least-thirty-two-chars');
    const forged = await foreign.signRefresh({ sub: 'x', jti: 'y', family: 'z' });
    expectError(await refresh(forged), 401);
    expectError(await refresh('not.a.token'), 401);
    expectError(await refresh(''), 400);
    expectError(await app.inject({ method: 'POST', url: '/api/auth/refresh', payload: {} }), 400);
    expectError(
      await app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { 'content-type': 'application/json' },
        payload: '{bad',
      }),
      400,
    );
  });

  it('refuses a refresh token whose record is gone (e.g. signed but never issued)', async () => {
    const { sub } = await app.tokens.verifyAccess((await devLogin(app, '700')).accessToken);
    const unissued = await app.tokens.signRefresh({ sub, jti: 'never-recorded', family: 'f' });
    expectError(await refresh(unissued), 401);
  });
});

async function familyOf(refreshToken: string) {
  const { jti } = await app.tokens.verifyRefresh(refreshToken);
  const [row] = await app.db.select().from(refreshTokens).where(eq(refreshTokens.id, jti));
  if (row === undefined) throw new Error('no refresh token row');
  return row;
}
