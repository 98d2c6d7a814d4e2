import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ROUTES } from '@sea/contract/paths';
import { SuggestQuerySchema, SuggestionsSchema } from '@sea/contract/suggestions';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { suggest } from './suggest-search.ts';

/**
 * Suggestions come at every pause in typing: generous for a person, a bound for a script. Per caller's
 * address, shared across servers with Redis like every limit.
 */
const SUGGEST_RATE_LIMIT = { rateLimit: { max: 300, timeWindow: '1 minute' } };

/** `GET /api/search/suggest?q=`: classes and instructors for the search box as the user types. */
export async function suggestRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    ROUTES.searchSuggest,
    {
      config: SUGGEST_RATE_LIMIT,
      schema: {
        tags: ['classes'],
        summary: 'Up to 5 classes and 3 instructors for what the search box holds so far',
        description:
          '`q` is read as `GET /api/classes?q=` reads it (up to 50 characters and 5 distinct words, else 400; ' +
          'blank answers empty lists) and matched the same way: without spaces, by 초성, with common typos ' +
          'and English names. Instructors are those with a class whose nickname holds `q`. At most 300 ' +
          'requests a minute per address (429); a suggestion past 3 s on PostgreSQL answers 503.',
        querystring: SuggestQuerySchema,
        response: { 200: envelopeSchema(SuggestionsSchema), ...errorResponses(400, 429, 503) },
      },
    },
    async (request) => {
      const { q } = request.query;
      if (q === undefined) return ok({ classes: [], instructors: [] }, '추천 검색어예요.', 'Suggestions.');
      const found = await suggest(app.db, q);
      const instructors = found.instructors.map(({ id, nickname, profileImage }) => ({
        id,
        nickname,
        profile_image_path: profileImage === null ? null : app.storage.url(profileImage),
      }));
      return ok({ classes: found.classes, instructors }, '추천 검색어예요.', 'Suggestions.');
    },
  );
}
