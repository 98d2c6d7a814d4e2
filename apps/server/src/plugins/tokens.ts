import { jwtVerify, SignJWT } from 'jose';
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S } from '@sea/contract/auth';
import { unauthorized } from '../errors.ts';

const ALGORITHM = 'HS256';
const ISSUER = 'sea-server';
type TokenType = 'access' | 'refresh';

/** Claims of a verified refresh token. */
export type RefreshClaims = { sub: string; jti: string; family: string; expiresAt: Date };

/** Signs and verifies access and refresh tokens with one HS256 secret. */
export type Tokens = ReturnType<typeof createTokens>;

/**
 * Access and refresh tokens (the original API spec, section 2). Each carries a `typ` claim, so a refresh
 * token is never accepted as an access token nor the reverse; only HS256 is accepted.
 */
export function createTokens(secret: string) {
  const key = new TextEncoder().encode(secret);

  async function sign(typ: TokenType, claims: Record<string, string>, sub: string, expiresAt: number) {
    return new SignJWT({ ...claims, typ })
      .setProtectedHeader({ alg: ALGORITHM })
      .setIssuer(ISSUER)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .sign(key);
  }

  async function verify(typ: TokenType, token: string) {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM], issuer: ISSUER });
      if (payload.typ !== typ || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') {
        throw new Error('wrong token type');
      }
      return { ...payload, family: payload.family, sub: payload.sub, exp: payload.exp };
    } catch {
      throw unauthorized('로그인이 만료되었어요. 다시 로그인해 주세요.', 'Invalid or expired token.');
    }
  }

  const now = () => Math.floor(Date.now() / 1000);

  return {
    /** An access token for account `sub`, valid ACCESS_TOKEN_TTL_S (or `ttlS`: tests of expiry). */
    signAccess(sub: string, ttlS = ACCESS_TOKEN_TTL_S): Promise<string> {
      return sign('access', {}, sub, now() + ttlS);
    },

    /** A refresh token, valid REFRESH_TOKEN_TTL_S but never past `notAfter` (the family's absolute limit). */
    signRefresh(input: { sub: string; jti: string; family: string; notAfter?: Date }): Promise<string> {
      let exp = now() + REFRESH_TOKEN_TTL_S;
      if (input.notAfter) exp = Math.min(exp, Math.floor(input.notAfter.getTime() / 1000));
      return sign('refresh', { jti: input.jti, family: input.family }, input.sub, exp);
    },

    /** The account id and expiry (epoch seconds) of a valid access token; throws a 401 HttpError otherwise. */
    async verifyAccess(token: string): Promise<{ sub: string; exp: number }> {
      const payload = await verify('access', token);
      return { sub: payload.sub, exp: payload.exp };
    },

    /** The claims of a valid refresh token; throws a 401 HttpError otherwise. */
    async verifyRefresh(token: string): Promise<RefreshClaims> {
      const payload = await verify('refresh', token);
      if (typeof payload.jti !== 'string' || typeof payload.family !== 'string') throw unauthorized();
      return {
        sub: payload.sub,
        jti: payload.jti,
        family: payload.family,
        expiresAt: new Date(payload.exp * 1000),
      };
    },
  };
}
