import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenPairSchema } from '@sea/contract/auth';
import { accounts, loginCodes } from '../db/schema.ts';
import { expectError } from '../../test/expect-envelope.ts';
import { startFakeKakao, type FakeKakao } from '../../test/fake-kakao.ts';
import { buildTestApp, testConfig } from '../../test/helper.ts';
import { devLogin } from '../../test/login.ts';

const PUBLIC_URL = 'http://localhost:5000';
const CALLBACK = `${PUBLIC_URL}/oauth/kakao/callback`;

describe('dev provider', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ publicUrl: PUBLIC_URL });
  });
  afterAll(() => app.close());

  it('GET app-key answers the dev provider, bare', async () => {
    const response = await app.inject('/api/auth/kakao/app-key');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ appKey: 'dev', provider: 'dev' });
  });

  it('shows a Korean page with a form that keeps redirect_uri and state (escaped)', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/dev/authorize',
      query: { redirect_uri: CALLBACK, state: '"><script>alert(1)</script>' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('개발용 로그인');
    expect(response.body).toContain('name="kakao_id"');
    expect(response.body).toContain(`value="${CALLBACK}"`);
    expect(response.body).not.toContain('<script>alert(1)');
    expect(response.body).toContain('&quot;&gt;&lt;script&gt;');
    expect(response.headers['content-security-policy']).toContain(`form-action 'self' ${PUBLIC_URL}`);
  });

  it('with kakao_id redirects at once with a code and the state; the code logs in once', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/dev/authorize',
      query: { redirect_uri: `${CALLBACK}?from=test`, state: 'xyz', kakao_id: '1001' },
    });
    expect(response.statusCode).toBe(302);
    const location = new URL(response.headers.location ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(location.searchParams.get('state')).toBe('xyz');
    expect(location.searchParams.get('from')).toBe('test');
    const code = location.searchParams.get('code') ?? '';
    expect(code.length).toBeGreaterThan(30);

    // only the hash is stored
    const stored = await app.db.select().from(loginCodes);
    expect(stored.some((row) => row.codeHash === code)).toBe(false);

    const first = await app.inject({ method: 'GET', url: '/api/auth/kakao/callback', query: { code } });
    expect(first.statusCode).toBe(200);
    const pair = TokenPairSchema.parse(first.json());
    expect(Object.keys(first.json() as object).sort()).toEqual(['accessToken', 'refreshToken']);
    const { sub } = await app.tokens.verifyAccess(pair.accessToken);
    const [account] = await app.db.select().from(accounts).where(eq(accounts.id, sub));
    expect(account).toMatchObject({ provider: 'dev', providerUserId: '1001' });

    expectError(await app.inject({ method: 'GET', url: '/api/auth/kakao/callback', query: { code } }), 401);
  });

  it('the same identity logs into the same account; another identity into another', async () => {
    const a = await app.tokens.verifyAccess((await devLogin(app, '2002')).accessToken);
    const b = await app.tokens.verifyAccess((await devLogin(app, '2002')).accessToken);
    const c = await app.tokens.verifyAccess((await devLogin(app, '2003')).accessToken);
    expect(a.sub).toBe(b.sub);
    expect(c.sub).not.toBe(a.sub);
  });

  it('two simultaneous exchanges of one code: exactly one succeeds', async () => {
    const authorize = await app.inject({
      method: 'GET',
      url: '/api/auth/dev/authorize',
      query: { redirect_uri: CALLBACK, kakao_id: '3003' },
    });
    const code = new URL(authorize.headers.location ?? '').searchParams.get('code') ?? '';
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.inject({ method: 'GET', url: '/api/auth/kakao/callback', query: { code } }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  it('an expired code is refused', async () => {
    const authorize = await app.inject({
      method: 'GET',
      url: '/api/auth/dev/authorize',
      query: { redirect_uri: CALLBACK, kakao_id: '4004' },
    });
    const code = new URL(authorize.headers.location ?? '').searchParams.get('code') ?? '';
    await app.db.update(loginCodes).set({ expiresAt: new Date(Date.now() - 1000) });
    expectError(await app.inject({ method: 'GET', url: '/api/auth/kakao/callback', query: { code } }), 401);
  });

  it.each([
    ['a foreign origin', 'https://evil.example/oauth/kakao/callback'],
    ['a look-alike host', 'http://localhost:5000.evil.example/cb'],
    ['credentials in the URL', 'http://user@localhost:5000/cb'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', '/oauth/kakao/callback'],
    ['a protocol-relative URL', '//evil.example/cb'],
  ])('refuses %s as redirect_uri (no redirect)', async (_name, redirectUri) => {
    for (const kakaoId of [undefined, '1001']) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/auth/dev/authorize',
        query: { redirect_uri: redirectUri, ...(kakaoId ? { kakao_id: kakaoId } : {}) },
      });
      expectError(response, 400);
      expect(response.headers.location).toBeUndefined();
    }
  });

  it('accepts a loopback dev server on another port', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/dev/authorize',
      query: { redirect_uri: 'http://127.0.0.1:5173/oauth/kakao/callback', kakao_id: '5' },
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^http:\/\/127\.0\.0\.1:5173\/oauth\/kakao\/callback\?code=/);
  });

  it('answers a missing redirect_uri with 400 and a non-numeric identity with the page again', async () => {
    expectError(await app.inject('/api/auth/dev/authorize'), 400);
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/dev/authorize',
      query: { redirect_uri: CALLBACK, kakao_id: "1 or '1'='1" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('숫자로 입력해 주세요');
    expect(response.headers.location).toBeUndefined();
  });

  it('callback: 400 without a code, 401 for an unknown one', async () => {
    expectError(await app.inject('/api/auth/kakao/callback'), 400);
    expectError(await app.inject('/api/auth/kakao/callback?code='), 400);
    expectError(await app.inject('/api/auth/kakao/callback?code=made-up'), 401);
  });
});

describe('real Kakao path against the fake Kakao server', () => {
  let fake: FakeKakao;
  let app: FastifyInstance;
  beforeAll(async () => {
    fake = await startFakeKakao({ restApiKey: 'rest-key', clientSecret: 'secret', redirectUri: CALLBACK });
    const { kakao } = testConfig();
    app = await buildTestApp({
      publicUrl: PUBLIC_URL,
      kakao: {
        ...kakao,
        restApiKey: 'rest-key',
        jsKey: 'js-key',
        clientSecret: 'secret',
        authUrl: fake.authUrl,
        apiUrl: fake.apiUrl,
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('GET app-key answers the JavaScript key and provider kakao', async () => {
    expect((await app.inject('/api/auth/kakao/app-key')).json()).toEqual({
      appKey: 'js-key',
      provider: 'kakao',
    });
  });

  it('exchanges a Kakao code for tokens and creates the account on first login only', async () => {
    const first = await app.inject({
      method: 'GET',
      url: '/api/auth/kakao/callback',
      query: { code: fake.issueCode(987_654_321) },
    });
    expect(first.statusCode, first.body).toBe(200);
    const { sub } = await app.tokens.verifyAccess(TokenPairSchema.parse(first.json()).accessToken);
    const [account] = await app.db.select().from(accounts).where(eq(accounts.id, sub));
    expect(account).toMatchObject({ provider: 'kakao', providerUserId: '987654321' });

    const again = await app.inject({
      method: 'GET',
      url: '/api/auth/kakao/callback',
      query: { code: fake.issueCode(987_654_321) },
    });
    expect((await app.tokens.verifyAccess(TokenPairSchema.parse(again.json()).accessToken)).sub).toBe(sub);
    expect(await app.db.select().from(accounts).where(eq(accounts.providerUserId, '987654321'))).toHaveLength(
      1,
    );
  });

  it('simultaneous first logins of one Kakao user end in one account', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        app.inject({
          method: 'GET',
          url: '/api/auth/kakao/callback',
          query: { code: fake.issueCode(55_555) },
        }),
      ),
    );
    const subs = await Promise.all(
      answers.map(
        async (a) => (await app.tokens.verifyAccess(TokenPairSchema.parse(a.json()).accessToken)).sub,
      ),
    );
    expect(new Set(subs).size).toBe(1);
    expect(await app.db.select().from(accounts).where(eq(accounts.providerUserId, '55555'))).toHaveLength(1);
  });

  it('answers 401 when Kakao rejects the code', async () => {
    expectError(await app.inject('/api/auth/kakao/callback?code=not-a-kakao-code'), 401);
  });

  it('has no dev provider', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/dev/authorize',
      query: { redirect_uri: CALLBACK, kakao_id: '1' },
    });
    expectError(response, 404);
  });
});
