import { TokenPairSchema } from '@sea/contract/auth';
import type { TokenPair } from '@sea/contract/auth';
import { ROUTES } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';
import { isHttpError } from '../../../lib/http-error.ts';

/** Exchanges the provider's login code for the server's tokens (`GET /api/auth/kakao/callback`, bare). */
export function exchangeCode(code: string): Promise<TokenPair> {
  return http(ROUTES.kakaoCallback, {
    bare: true,
    anonymous: true,
    query: { code },
    schema: TokenPairSchema,
  });
}

/** Whether the account behind `accessToken` has signed up: `GET /api/auth/signup` answers 200 or 404. */
export async function isRegistered(accessToken: string): Promise<boolean> {
  try {
    await http(ROUTES.signup, { token: accessToken });
    return true;
  } catch (error) {
    if (isHttpError(error, 404)) return false;
    throw error;
  }
}
