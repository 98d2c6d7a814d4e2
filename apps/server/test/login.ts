import type { FastifyInstance } from 'fastify';
import { TokenPairSchema, type TokenPair } from '@sea/contract/auth';

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
