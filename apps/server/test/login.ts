import type { FastifyInstance } from 'fastify';
import { TokenPairSchema, type TokenPair } from '@sea/contract/auth';
import { jsonPart, multipart } from './multipart.ts';

/** Logs in dev identity `kakaoId` the way a browser script does (authorize, then callback): its token pair. */
export async function devLogin(app: FastifyInstance, kakaoId: string): Promise<TokenPair> {
  const redirectUri = `${app.config.publicUrl}/oauth/kakao/callback`;
  const authorize = await app.inject({
    method: 'GET',
    url: '/api/auth/dev/authorize',
    query: { redirect_uri: redirectUri, state: 'test', kakao_id: kakaoId },
  });
  if (authorize.statusCode !== 302) throw new Error(`dev authorize answered ${authorize.statusCode}`);
  const code = new URL(authorize.headers.location ?? '').searchParams.get('code') ?? '';
  const response = await app.inject({ method: 'GET', url: '/api/auth/kakao/callback', query: { code } });
  return TokenPairSchema.parse(response.json());
}

/** Signs `token`'s account up with `nickname` through `POST /api/auth/signup` (no email, no avatar). */
export function postSignup(app: FastifyInstance, token: string, nickname: string) {
  const { payload, headers } = multipart([jsonPart('signupRequestDto', { nickname })]);
  return app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
}
