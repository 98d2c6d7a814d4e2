import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { NotificationItem } from '@sea/contract/notifications';
import { redisAvailable } from '../../test/helper.ts';
import { skipNotice } from '../../test/skip-notice.ts';
import { NotificationHub } from './notification-hub.ts';

const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await redisAvailable(REDIS);
if (!redisUp && process.env.CI === 'true') throw new Error('Redis is required when CI=true');
if (!redisUp) skipNotice('notification-hub.test.ts: SKIPPED, no Redis');

const hubs: NotificationHub[] = [];
afterEach(() => {
  for (const hub of hubs.splice(0)) hub.close();
});

/** Two server processes' hubs on one fresh channel. */
async function twoHubs(): Promise<[NotificationHub, NotificationHub]> {
  const channel = `sea:test:notifications:${randomUUID()}`;
  const made = [0, 1].map(() => new NotificationHub({ url: REDIS, channel, log: () => {} }));
  hubs.push(...made);
  // Each subscriber needs a moment to be subscribed.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return made as [NotificationHub, NotificationHub];
}

describe.skipIf(!redisUp)('notification hub across server processes', () => {
  it("delivers a notice to the user's stream on the other process, and ends it there too", async () => {
    const [here, there] = await twoHubs();
    const heard: NotificationItem[] = [];
    let ended = false;
    there.listen('u1', { notice: (item) => heard.push(item), end: () => (ended = true) });
    here.deliver([{ userId: 'u1', item: { id: 1 } as NotificationItem }]);
    await expect.poll(() => heard.length, { timeout: 2_000 }).toBe(1);
    here.end('u2');
    here.end('u1');
    await expect.poll(() => ended, { timeout: 2_000 }).toBe(true);
  });
});
