import { TokenPairSchema } from '@sea/contract/auth';
import type { TokenPair } from '@sea/contract/auth';
import { ROUTES } from '@sea/contract/paths';
import { SignupStatusSchema } from '@sea/contract/users';
import { http } from '../../../lib/http.ts';

/** Exchanges the provider's login code for the server's tokens (`GET /api/auth/kakao/callback`, bare). */
export function exchangeCode(code: string): Promise<TokenPair> {
  return http(ROUTES.kakaoCallback, {
    bare: true,
    anonymous: true,
    query: { code },
    schema: TokenPairSchema,
  });
}

/**
 * Whether the account behind `accessToken` has signed up: `GET /api/auth/signup?answer=status`, which answers
 * 200 either way (a 404 would be a failed request in the browser's console on every first login).
 */
export async function isRegistered(accessToken: string): Promise<boolean> {
  const status = await http(ROUTES.signup, {
    token: accessToken,
    query: { answer: 'status' },
    schema: SignupStatusSchema,
  });
  return status.registered;
}
