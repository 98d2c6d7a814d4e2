import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppKeySchema, CallbackQuerySchema, RefreshSchema, TokenPairSchema } from '@sea/contract/auth';
import type { AppKey, AuthProvider } from '@sea/contract/auth';
import { ROUTES } from '@sea/contract/paths';
import { errorResponses } from '../envelope.ts';
import { unauthorized } from '../errors.ts';
import { accountFor } from './accounts.ts';
import { redeemDevCode } from './dev-codes.ts';
import { devAuthorizeRoute } from './dev-authorize-route.ts';
import { kakaoUserId, type KakaoOptions } from './kakao.ts';
import { issueTokenPair, rotateRefreshToken } from './token-pairs.ts';

/** Logged at start when the dev login runs in production. */
export const DEV_LOGIN_IN_PRODUCTION =
  'DEV LOGIN IS ON IN PRODUCTION (DEV_LOGIN=true, no KAKAO_REST_API_KEY): anyone can log in as anyone. ' +
  'Set KAKAO_REST_API_KEY for real logins.';

// Login endpoints are public; a per-address limit keeps code and token guessing slow without bothering people.
const LOGIN_RATE_LIMIT = { rateLimit: { max: 300, timeWindow: '1 minute' } };

/**
 * Login (Kakao, or the offline dev provider when no Kakao key is configured) and token refresh. These routes
 * answer bare bodies, as existing clients expect (the original API spec 1.1).
 */
export async function authRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { kakao, publicUrl } = app.config;
  const kakaoOptions: KakaoOptions | null =
    kakao.restApiKey === null
      ? null
      : {
          restApiKey: kakao.restApiKey,
          clientSecret: kakao.clientSecret,
          authUrl: kakao.authUrl,
          apiUrl: kakao.apiUrl,
          publicUrl,
        };
  const provider: AuthProvider = kakaoOptions === null ? 'dev' : 'kakao';
  // Only with DEV_LOGIN=true (config.ts refuses it otherwise): say so at every start, where operators look.
  if (provider === 'dev' && app.config.production) app.log.warn(DEV_LOGIN_IN_PRODUCTION);
  // The browser SDK needs the JavaScript key; without one the REST key still lets the web app build the
  // authorize URL itself. The dev provider has no key.
  const appKey: AppKey = { appKey: kakao.jsKey ?? kakao.restApiKey ?? 'dev', provider };

  app.get(
    ROUTES.appKey,
    {
      schema: {
        tags: ['auth'],
        summary: 'Login provider and its browser key (bare)',
        response: { 200: AppKeySchema },
      },
    },
    async () => appKey,
  );

  app.get(
    ROUTES.kakaoCallback,
    {
      config: LOGIN_RATE_LIMIT,
      schema: {
        tags: ['auth'],
        summary: 'Exchange a login code for tokens (bare); creates the account on first login',
        querystring: CallbackQuerySchema,
        response: { 200: TokenPairSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const { code } = request.query;
      let providerUserId: string;
      if (kakaoOptions === null) {
        const identity = await redeemDevCode(app.db, code);
        if (identity === null) {
          throw unauthorized(
            '로그인 코드가 올바르지 않거나 만료되었어요. 다시 로그인해 주세요.',
            'Invalid login code.',
          );
        }
        providerUserId = identity;
      } else {
        providerUserId = await kakaoUserId(kakaoOptions, code);
      }
      const accountId = await accountFor(app.db, provider, providerUserId);
      return issueTokenPair(app.db, app.tokens, accountId);
    },
  );

  app.post(
    ROUTES.refresh,
    {
      config: LOGIN_RATE_LIMIT,
      schema: {
        tags: ['auth'],
        summary: 'Rotate a refresh token (bare); a reused token revokes its whole login',
        body: RefreshSchema.extend({ refreshToken: z.string().min(1).max(4096) }),
        response: { 200: TokenPairSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => rotateRefreshToken(app.db, app.tokens, request.body.refreshToken),
  );

  if (kakaoOptions === null) {
    // Anyone can log in as any identity with the dev provider: fine offline, never in production.
    app.log.warn('No KAKAO_REST_API_KEY: the dev login provider is active (anyone can log in as anyone).');
    await app.register(devAuthorizeRoute);
  }
}
