import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../errors.ts';
import { startFakeKakao, type FakeKakao } from '../../test/fake-kakao.ts';
import { kakaoUserId, type KakaoOptions } from './kakao.ts';

const PUBLIC_URL = 'http://localhost:5173';
let fake: FakeKakao;
let options: KakaoOptions;

beforeAll(async () => {
  fake = await startFakeKakao({
    restApiKey: 'rest-key',
    clientSecret: 'client-secret',
    redirectUri: `${PUBLIC_URL}/oauth/kakao/callback`,
  });
  options = {
    restApiKey: 'rest-key',
    clientSecret: 'client-secret',
    authUrl: fake.authUrl,
    apiUrl: fake.apiUrl,
    publicUrl: PUBLIC_URL,
  };
});
afterAll(() => fake.close());

async function status(promise: Promise<unknown>): Promise<number> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return error.status;
}

describe('kakaoUserId', () => {
  it('exchanges the code with every form field Kakao expects, then reads the numeric id', async () => {
    fake.requests.length = 0;
    expect(await kakaoUserId(options, fake.issueCode(4_123_456_789))).toBe('4123456789');
    const [token, me] = fake.requests;
    const form = new URLSearchParams(token?.body);
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'authorization_code',
      client_id: 'rest-key',
      redirect_uri: 'http://localhost:5173/oauth/kakao/callback',
      code: expect.any(String),
      client_secret: 'client-secret',
    });
    expect(me?.path).toBe('/v2/user/me');
    expect(me?.headers.authorization).toMatch(/^Bearer \S+$/);
  });

  it('answers 401 when Kakao refuses the code (unknown or reused)', async () => {
    const code = fake.issueCode(7);
    await kakaoUserId(options, code);
    expect(await status(kakaoUserId(options, code))).toBe(401);
    expect(await status(kakaoUserId(options, 'never-issued'))).toBe(401);
  });

  it('answers 401 with a wrong client secret or key', async () => {
    expect(await status(kakaoUserId({ ...options, clientSecret: 'wrong' }, fake.issueCode(8)))).toBe(401);
    expect(await status(kakaoUserId({ ...options, clientSecret: null }, fake.issueCode(8)))).toBe(401);
    expect(await status(kakaoUserId({ ...options, restApiKey: 'other' }, fake.issueCode(8)))).toBe(401);
  });

  it('answers 401 when Kakao is unreachable or too slow', async () => {
    expect(await status(kakaoUserId({ ...options, authUrl: 'http://127.0.0.1:9' }, 'x'))).toBe(401);
    fake.delayMs = 500;
    try {
      expect(await status(kakaoUserId({ ...options, timeoutMs: 100 }, fake.issueCode(9)))).toBe(401);
    } finally {
      fake.delayMs = 0;
    }
  });
});
