import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { redisForTests, REDIS_URL } from '../../test/test-redis.ts';
import { LiveError } from '../live-error.ts';
import { RedisUsedTickets } from './redis-used-tickets.ts';

const available = await redisForTests('SKIPPED: the shared used-ticket memory tests need Redis on 6379');

const opened: RedisUsedTickets[] = [];
afterAll(() => opened.forEach((memory) => memory.close()));

function node(prefix: string, url = REDIS_URL): RedisUsedTickets {
  const memory = new RedisUsedTickets(url, prefix);
  opened.push(memory);
  return memory;
}

describe.skipIf(!available)('RedisUsedTickets (one memory for every node)', () => {
  it('a ticket used on one node is refused on another, until it expires', async () => {
    const prefix = `sea:test:used-ticket:${randomUUID()}:`;
    const [a, b] = [node(prefix), node(prefix)];
    const jti = randomUUID();
    expect(await a.use(jti, Date.now() + 300)).toBe(true);
    expect(await b.use(jti, Date.now() + 300)).toBe(false);
    expect(await a.use(jti, Date.now() + 300)).toBe(false);
    expect(await b.use(randomUUID(), Date.now() + 300)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    // Expired: its signature check refuses it anyway, and the memory holds nothing for it any more.
    expect(await b.use(jti, Date.now() + 300)).toBe(true);
  });

  it('refuses a ticket as unauthorized, in Korean, while Redis cannot be reached', async () => {
    const unreachable = node('sea:test:used-ticket:', 'redis://127.0.0.1:1');
    const refusal = await unreachable.use(randomUUID(), Date.now() + 60_000).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(LiveError);
    expect(refusal).toMatchObject({ code: 'unauthorized' });
  });
});
