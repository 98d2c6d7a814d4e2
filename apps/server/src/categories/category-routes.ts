import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CategorySchema, type Category } from '@sea/contract/categories';
import { ROUTES } from '@sea/contract/paths';
import { categories } from '../db/schema.ts';

/** `GET /api/categories`: the 25 categories as a bare array (they never change while the server runs). */
export async function categoryRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  let cached: Category[] | null = null;
  app.get(
    ROUTES.categories,
    {
      schema: {
        tags: ['classes'],
        summary: 'All categories (bare array)',
        response: { 200: z.array(CategorySchema) },
      },
    },
    async () => {
      cached ??= await app.db.select().from(categories).orderBy(asc(categories.id));
      return cached;
    },
  );
}
