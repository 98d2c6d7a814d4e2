import fastifyRateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { newRedis } from '../load-redis.ts';
import { tooManyRequests } from '../errors.ts';
import { accountIdOf } from './auth.ts';
import { WRITE_LIMITS, type WriteLimitName } from '../write-limits.ts';

/** How often a Redis failure of the limits is logged at most: while Redis is away, every request would log. */
const LOG_EVERY_MS = 10_000;

/**
 * A limit per signed-in account for a bearer route. Counted once the request is authenticated and its JSON
 * body valid (preHandler), before the handler reads any upload; past it the route answers the 429 envelope
 * with `Retry-After`.
 */
function perUserLimit(max: number, timeWindow: string): { rateLimit: RateLimitOptions } {
  return {
    rateLimit: { max, timeWindow, hook: 'preHandler', keyGenerator: (request) => accountIdOf(request) },
  };
}

/**
 * The route config of a write limit: `config: writeLimit(app, 'classCreation')`. Tests may widen the limits
 * (`Config.writeLimits`); production uses {@link WRITE_LIMITS}.
 */
export function writeLimit(app: FastifyInstance, name: WriteLimitName): { rateLimit: RateLimitOptions } {
  const { max, timeWindow } = app.config.writeLimits?.[name] ?? WRITE_LIMITS[name];
  return perUserLimit(max, timeWindow);
}

/**
 * Rate limiting is opt-in per route (`config: { rateLimit: { max, timeWindow } }`, or a per-user limit
 * above); a limited caller gets the 429 envelope. With Redis the counts are shared by every server process
 * (keys under `namespace`); while Redis is away requests are let through (and the failure logged) rather
 * than refused or kept waiting.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  redis: { url: string; namespace: string } | null,
): Promise<void> {
  let client: Redis | null = null;
  if (redis !== null) {
    // Fail fast while disconnected (no offline queue): a request must not wait for Redis to come back.
    client = newRedis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    let loggedAt = 0;
    client.on('error', (error: unknown) => {
      if (Date.now() - loggedAt < LOG_EVERY_MS) return;
      loggedAt = Date.now();
      app.log.warn({ err: error }, 'rate limits are off while redis is away');
    });
    const connected = client;
    app.addHook('onClose', async () => connected.disconnect());
  }
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: () => tooManyRequests(),
    ...(client === null || redis === null
      ? {}
      : { redis: client, nameSpace: redis.namespace, skipOnError: true }),
  });
}
