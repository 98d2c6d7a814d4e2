import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTES } from '@sea/contract/paths';
import type { Config } from '../config.ts';
import { expectError } from '../../test/expect-envelope.ts';
import { buildTestApp } from '../../test/helper.ts';

// The login routes allow 300 requests a minute per caller address (auth/auth-routes.ts).
const LOGIN_LIMIT = 300;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(overrides: Partial<Config> = {}): Promise<FastifyInstance> {
  app = await buildTestApp(overrides);
  return app;
}

/** A refresh with a token that is not one: 401 while under the limit. */
function refresh(
  server: FastifyInstance,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return server.inject({
    method: 'POST',
    url: ROUTES.refresh,
    payload: { refreshToken: 'not-a-token' },
    headers,
  });
}

/** Spends the whole minute's allowance of one caller, checking that every request was still served. */
async function exhaust(server: FastifyInstance, headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < LOGIN_LIMIT; i += 1) {
    const response = await refresh(server, headers);
    expect(response.statusCode, `request ${i + 1}`).toBe(401);
  }
}

function expectLimited(response: LightMyRequestResponse): void {
  const body = expectError(response, 429);
  expect(body.message_kor).toBe('요청이 너무 많아요. 잠시 후 다시 시도해 주세요.');
  expect(body.message_eng).toBe('Too many requests.');
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

describe('the login rate limit', () => {
  it('answers the 429 envelope (Korean message, Retry-After) past 300 requests a minute', async () => {
    const server = await start();
    await exhaust(server);
    expectLimited(await refresh(server));
    // The other login routes count on their own: a refresh flood does not lock out logging in.
    expectError(await server.inject({ url: ROUTES.kakaoCallback, query: { code: 'unknown' } }), 401);
  });

  it('by default ignores X-Forwarded-For: a caller cannot reset its limit by naming another address', async () => {
    const server = await start();
    await exhaust(server, { 'x-forwarded-for': '203.0.113.1' });
    for (const spoofed of ['203.0.113.2', '198.51.100.7, 203.0.113.3', '127.0.0.2']) {
      expectLimited(await refresh(server, { 'x-forwarded-for': spoofed }));
    }
    expectLimited(await refresh(server));
  });

  it('with TRUST_PROXY set, counts each forwarded client on its own (one behind the proxy is not another)', async () => {
    const server = await start({ trustProxy: ['127.0.0.1'] });
    await exhaust(server, { 'x-forwarded-for': '203.0.113.1' });
    expectLimited(await refresh(server, { 'x-forwarded-for': '203.0.113.1' }));
    expect((await refresh(server, { 'x-forwarded-for': '203.0.113.2' })).statusCode).toBe(401);
  });

  it('with TRUST_PROXY=1, believes only the address the nearest proxy added, not what the client wrote', async () => {
    const server = await start({ trustProxy: 1 });
    // The client wrote the first entry itself; the proxy appended the address it saw.
    await exhaust(server, { 'x-forwarded-for': '198.51.100.9, 203.0.113.1' });
    expectLimited(await refresh(server, { 'x-forwarded-for': '198.51.100.10, 203.0.113.1' }));
    expect((await refresh(server, { 'x-forwarded-for': '198.51.100.9, 203.0.113.2' })).statusCode).toBe(401);
  });
});
