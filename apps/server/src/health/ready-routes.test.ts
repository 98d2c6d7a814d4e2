import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@sea/contract/paths';
import type { Readiness } from '@sea/contract/readiness';
import { buildTestApp, redisAvailable } from '../../test/helper.ts';
import { newRedis } from '../load-redis.ts';
import { pong } from './ready-routes.ts';
import { skipNotice } from '../../test/skip-notice.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await redisAvailable(REDIS_URL);
if (!redisUp && process.env.CI === 'true') throw new Error('CI=true: Redis must answer at REDIS_URL');
if (!redisUp) skipNotice('Redis is not reachable: SKIPPING the readiness check of a live Redis');

const apps: FastifyInstance[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

async function ready(overrides: Parameters<typeof buildTestApp>[0] = {}) {
  const app = await buildTestApp(overrides);
  apps.push(app);
  const check = async () => {
    const response = await app.inject({ url: ROUTES.ready });
    return { status: response.statusCode, body: response.json<Readiness>() };
  };
  return { app, check };
}

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}

describe('GET /ready', () => {
  it('answers 503 naming the media as down while no media node has reported, Redis off without REDIS_URL', async () => {
    const { check } = await ready();
    expect(await check()).toMatchObject({
      status: 503,
      body: { ready: false, checks: { database: 'up', redis: 'off', media: 'down' } },
    });
  });

  it('tells the space left on the disks of the recordings and the replays, without making it a check', async () => {
    const { check } = await ready();
    const { body } = await check();
    expect(Object.keys(body.checks)).toEqual(['database', 'redis', 'media']);
    for (const folder of ['recordings', 'replays']) {
      expect(body.space?.[folder]?.free_bytes).toBeGreaterThan(0);
      expect(body.space?.[folder]?.total_bytes).toBeGreaterThanOrEqual(body.space?.[folder]?.free_bytes ?? 0);
    }
  });

  it('says Redis is down when REDIS_URL names a port nothing answers on, within its deadline', async () => {
    const { check } = await ready({ redisUrl: `redis://127.0.0.1:${await closedPort()}` });
    const started = performance.now();
    const { status, body } = await check();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(status).toBe(503);
    expect(body.checks.redis).toBe('down');
  });

  it.runIf(redisUp)('says Redis is up when it answers', async () => {
    const { check } = await ready({ redisUrl: REDIS_URL });
    const { body } = await check();
    expect(body.checks).toMatchObject({ database: 'up', redis: 'up' });
  });

  it.runIf(redisUp)('waits for a connection still being made instead of calling Redis down', async () => {
    const redis = newRedis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    try {
      expect(redis.status).not.toBe('ready');
      expect(await pong(redis)).toBe(true);
    } finally {
      redis.disconnect();
    }
  });

  it.runIf(process.env.TEST_DATABASE !== 'postgres')(
    'says the database is down once the embedded one has stopped',
    async () => {
      const { app, check } = await ready();
      await (app.db as unknown as { $client: PGlite }).$client.close();
      const { status, body } = await check();
      expect(status).toBe(503);
      expect(body.checks.database).toBe('down');
    },
  );
});
