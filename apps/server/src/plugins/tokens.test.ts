import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_S } from '@sea/contract/auth';
import { HttpError } from '../errors.ts';
import { createTokens } from './tokens.ts';

const tokens = createTokens('a'.repeat(40));

async function expect401(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  expect((error as HttpError).status).toBe(401);
}

describe('tokens', () => {
  it('verifies its own access token, and tells when it expires', async () => {
    const signedAt = Math.floor(Date.now() / 1000);
    const token = await tokens.signAccess('account-1');
    const { sub, exp } = await tokens.verifyAccess(token);
    expect(sub).toBe('account-1');
    expect(exp - signedAt).toBeGreaterThanOrEqual(ACCESS_TOKEN_TTL_S);
    expect(exp - signedAt).toBeLessThanOrEqual(ACCESS_TOKEN_TTL_S + 1);
    const short = await tokens.verifyAccess(await tokens.signAccess('account-1', 2));
    expect(short.exp - signedAt).toBeLessThanOrEqual(3);
  });

  it('verifies its own refresh token with jti and family', async () => {
    const token = await tokens.signRefresh({ sub: 'a', jti: 'j', family: 'f' });
    const claims = await tokens.verifyRefresh(token);
    expect(claims).toMatchObject({ sub: 'a', jti: 'j', family: 'f' });
    expect(claims.expiresAt.getTime()).toBeGreaterThan(Date.now() + 13 * 24 * 3600 * 1000);
  });

  it('caps a refresh token at the family limit', async () => {
    const notAfter = new Date(Date.now() + 60_000);
    const claims = await tokens.verifyRefresh(
      await tokens.signRefresh({ sub: 'a', jti: 'j', family: 'f', notAfter }),
    );
    expect(Math.abs(claims.expiresAt.getTime() - notAfter.getTime())).toBeLessThan(1000);
  });

  it('never accepts a refresh token as an access token, nor the reverse', async () => {
    await expect401(tokens.verifyAccess(await tokens.signRefresh({ sub: 'a', jti: 'j', family: 'f' })));
    await expect401(tokens.verifyRefresh(await tokens.signAccess('a')));
  });

  it('rejects a token signed with another secret', async () => {
    await expect401(tokens.verifyAccess(await createTokens('b'.repeat(40)).signAccess('a')));
  });

  it('rejects an unsigned (alg none) token', async () => {
    const token = new UnsecuredJWT({ typ: 'access' })
      .setSubject('a')
      .setIssuer('sea-server')
      .setExpirationTime('1h')
      .encode();
    await expect401(tokens.verifyAccess(token));
  });

  it('rejects an expired token and garbage', async () => {
    const key = new TextEncoder().encode('a'.repeat(40));
    const expired = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('a')
      .setIssuer('sea-server')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(key);
    await expect401(tokens.verifyAccess(expired));
    await expect401(tokens.verifyAccess('not.a.token'));
  });
});
