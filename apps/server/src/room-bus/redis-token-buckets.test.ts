import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { RedisTokenBuckets } from './redis-token-buckets.ts';
import { TokenBuckets, type TokenBucketOptions } from './token-buckets.ts';
import { redisAvailable } from '../../test/helper.ts';
import { skipNotice } from '../../test/skip-notice.ts';
import { freePort } from '@sea/service-kit/test/free-port';

const REDIS_URL = 'redis://127.0.0.1:6379';

const available = await redisAvailable(REDIS_URL);
if (!available && process.env.CI === 'true') throw new Error('Redis is required when CI=true');
if (!available) skipNotice('SKIPPED: shared rate-limit tests need Redis on 6379');

const opened: RedisTokenBuckets[] = [];
afterAll(async () => {
  await Promise.all(opened.map((buckets) => buckets.close()));
});

/** One instance's buckets: its own connection and memory fallback, on a prefix the test shares or not. */
function instance(prefix: string, limit: TokenBucketOptions, url = REDIS_URL): RedisTokenBuckets {
  const buckets = new RedisTokenBuckets({ url, prefix, limit, fallback: new TokenBuckets(limit) });
  opened.push(buckets);
  return buckets;
}

describe.skipIf(!available)('RedisTokenBuckets', () => {
  it('gives two instances one bucket per user, taken atomically', async () => {
    const prefix = `sea:test:rate:${randomUUID()}:`;
    const limit = { capacity: 5, refillPerSecond: 0.001 };
    const [a, b] = [instance(prefix, limit), instance(prefix, limit)];
    await Promise.all([a.ready(), b.ready()]);

    // Twenty at once, half on each instance: exactly the bucket's five get through.
    const takes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).take('alice')),
    );
    expect(takes.filter(Boolean)).toHaveLength(5);
    // Another user has a bucket of their own.
    expect(await b.take('bob')).toBe(true);
  });

  it('refills by the rate and lets the key expire once the bucket would be full', async () => {
    const prefix = `sea:test:rate:${randomUUID()}:`;
    const buckets = instance(prefix, { capacity: 2, refillPerSecond: 20 });
    await buckets.ready();
    expect([await buckets.take('u'), await buckets.take('u'), await buckets.take('u')]).toEqual([
      true,
      true,
      false,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await buckets.take('u')).toBe(true);
    const probe = new Redis(REDIS_URL);
    try {
      const ttl = await probe.pttl(`${prefix}u`);
      // Empty by now: 100 ms to be full again, plus a second of slack.
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(1_100);
    } finally {
      probe.disconnect();
    }
  });

  it('falls back to this instance’s memory while Redis cannot be reached', async () => {
    const port = await freePort();
    const buckets = instance('unused:', { capacity: 3, refillPerSecond: 0.001 }, `redis://127.0.0.1:${port}`);
    const takes = [];
    for (let i = 0; i < 5; i += 1) takes.push(await buckets.take('carol'));
    expect(takes).toEqual([true, true, true, false, false]);
  });
});
