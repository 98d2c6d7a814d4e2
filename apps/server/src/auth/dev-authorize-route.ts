import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ROUTES } from '@sea/contract/paths';
import { badRequest } from '../errors.ts';
import { devAuthorizePage } from './dev-authorize-page.ts';
import { DEV_IDENTITY_PATTERN, issueDevCode } from './dev-codes.ts';
import { isAllowedRedirect, redirectWithCode } from './redirect-target.ts';

const QuerySchema = z.object({
  redirect_uri: z.string({ error: 'redirect_uri가 필요해요.' }).min(1, 'redirect_uri가 필요해요.').max(2048),
  state: z.string().max(1024).optional(),
  kakao_id: z.string().max(64).optional(),
});

/**
 * `GET /api/auth/dev/authorize`: the dev provider's authorize endpoint, registered only when no Kakao key is
 * configured. Without `kakao_id` it shows a page to type a test identity; with one it redirects at once to
 * `redirect_uri?code=&state=`. The redirect target must be on PUBLIC_URL or a loopback origin.
 */
export async function devAuthorizeRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    ROUTES.devAuthorize,
    {
      config: { rateLimit: { max: 300, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Dev login provider: identity page, or an immediate redirect with a login code',
        querystring: QuerySchema,
      },
    },
    async (request, reply) => {
      const { redirect_uri: redirectUri, state, kakao_id: kakaoId } = request.query;
      if (!isAllowedRedirect(redirectUri, app.config.publicUrl)) {
        throw badRequest(
          'redirect_uri는 이 서비스 주소나 로컬 주소여야 해요.',
          'redirect_uri must be on PUBLIC_URL or a loopback origin.',
          { redirect_uri: '허용되지 않은 주소예요.' },
        );
      }
      if (kakaoId !== undefined && DEV_IDENTITY_PATTERN.test(kakaoId)) {
        const code = await issueDevCode(app.db, kakaoId);
        return reply
          .code(302)
          .header('cache-control', 'no-store')
          .redirect(redirectWithCode(redirectUri, code, state));
      }
      const page = devAuthorizePage({
        action: ROUTES.devAuthorize,
        redirectUri,
        state,
        ...(kakaoId === undefined ? {} : { error: '테스트 계정 번호는 1~19자리 숫자로 입력해 주세요.' }),
      });
      // The form's submission ends in a redirect to the web app, which form-action must allow.
      const target = new URL(redirectUri).origin;
      return reply
        .code(kakaoId === undefined ? 200 : 400)
        .header('cache-control', 'no-store')
        .header(
          'content-security-policy',
          `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${target}; base-uri 'none'; frame-ancestors 'none'`,
        )
        .type('text/html; charset=utf-8')
        .send(page);
    },
  );
}
