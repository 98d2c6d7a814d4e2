import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { tooManyRequests } from '../errors.ts';

/**
 * Rate limiting is opt-in per route (`config: { rateLimit: { max, timeWindow } }`); a limited caller gets
 * the 429 envelope.
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: () => tooManyRequests(),
  });
}
