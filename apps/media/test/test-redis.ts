import { Redis } from 'ioredis';
import { skipNotice } from './skip-notice.ts';

/** The Redis of the media tests that need one: REDIS_URL, else the machine's on 6379. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether Redis answers at {@link REDIS_URL}. When it does not, a test that needs it fails with CI=true and
 * is skipped on a developer's machine, saying so (`skipped`).
 */
export async function redisForTests(skipped: string): Promise<boolean> {
  const available = await redisAvailable();
  if (!available && process.env.CI === 'true') throw new Error('Redis is required when CI=true');
  if (!available) skipNotice(skipped);
  return available;
}

async function redisAvailable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined); // reported through the failed ping
  const pong = await probe
    .connect()
    .then(() => probe.ping())
    .catch(() => null); // no Redis there: the tests that need it skip or fail
  probe.disconnect();
  return pong === 'PONG';
}
