import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_TOKEN_TTL_S } from '@sea/contract/auth';
import { refreshTokens } from '../db/schema.ts';
import { buildTestApp } from '../../test/helper.ts';
import { devLogin } from '../../test/login.ts';
import { sweepExpiredRefreshTokens } from './refresh-token-sweep.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

const refresh = (refreshToken: string) =>
  app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });

describe('sweeping refresh tokens', () => {
  it('removes only families past their absolute limit; live logins keep refreshing', async () => {
    const login = await devLogin(app, '4401');
    const rotated = (await refresh(login.refreshToken)).json<{ refreshToken: string }>();
    expect(await app.db.select().from(refreshTokens)).toHaveLength(2);

    // A day before the family's limit nothing goes; a second after it, both rows of the family go.
    const limit = Date.now() + REFRESH_TOKEN_TTL_S * 1000;
    expect(await sweepExpiredRefreshTokens(app.db, new Date(limit - 86_400_000))).toBe(0);
    expect((await refresh(rotated.refreshToken)).statusCode).toBe(200);
    expect(await sweepExpiredRefreshTokens(app.db, new Date(limit + 60_000))).toBe(3);
    expect(await app.db.select().from(refreshTokens)).toHaveLength(0);
  });
});
