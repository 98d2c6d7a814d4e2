import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { newRedis } from '../load-redis.ts';
import { ROUTES } from '@sea/contract/paths';
import { READINESS_CHECK_MS, readiness, ReadinessSchema, type ReadinessCheck } from '@sea/contract/readiness';
import { isDatabaseUp } from '../db/open-database.ts';
import { folderSpace } from '../storage/disk-space.ts';

/** `up` when `check` resolves true within the readiness deadline, else `down`. */
async function within(check: () => Promise<boolean>): Promise<ReadinessCheck> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READINESS_CHECK_MS);
  });
  try {
    return (await Promise.race([check().catch(() => false), late])) ? 'up' : 'down';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether Redis answers a PING. A connection still being made (just after start, or after Redis came back) is
 * waited for within the deadline: without an offline queue a command sent before then fails at once, and the
 * server would call a Redis that is there 'down'.
 */
export async function pong(redis: Redis): Promise<boolean> {
  if (redis.status !== 'ready')
    await once(redis, 'ready', { signal: AbortSignal.timeout(READINESS_CHECK_MS) });
  return (await redis.ping()) === 'PONG';
}

/**
 * `GET /ready`: whether this server can serve now (a load balancer sends it traffic only then), with each
 * dependency checked: the database, Redis (with REDIS_URL; its own connection, so the check sees what a new
 * command would), and a media node that reported lately and answers. 200 when none is down, else 503. It tells
 * the space left on the disks of the recordings and the replays too (never a reason to be unready).
 * `GET /health` stays the liveness check: a process that answers it needs no restart, even when not ready.
 */
export async function readyRoutes(app: FastifyInstance): Promise<void> {
  const redis = app.config.redisUrl
    ? newRedis(app.config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0 })
    : null;
  if (redis) {
    redis.on('error', () => undefined); // what a failing Redis means is the check's answer, below
    app.addHook('onClose', async () => redis.disconnect());
  }
  const schema = {
    tags: ['health'],
    summary: 'Readiness: 200 when the database, Redis and a media node answer, else 503',
    response: { 200: ReadinessSchema, 503: ReadinessSchema },
  };
  app.get(ROUTES.ready, { schema }, async (_request, reply) => {
    const [database, cache, media] = await Promise.all([
      within(() => isDatabaseUp(app.db, READINESS_CHECK_MS)),
      redis ? within(() => pong(redis)) : ('off' as const),
      within(() => app.mediaNodes.reachable()),
    ]);
    const space = await folderSpace({ recordings: app.config.recordingsDir, replays: app.config.replaysDir });
    const answer = { ...readiness({ database, redis: cache, media }), space };
    return reply
      .code(answer.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(answer);
  });
}
