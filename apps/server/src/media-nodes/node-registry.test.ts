import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { redisAvailable } from '../../test/helper.ts';
import { NodeRegistry } from './node-registry.ts';
import { skipNotice } from '../../test/skip-notice.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const available = await redisAvailable(REDIS_URL);
if (!available && process.env.CI === 'true') throw new Error('Redis is required when CI=true');
if (!available) skipNotice('SKIPPED: media node registry tests need Redis on 6379');

const writer = new Redis(REDIS_URL, { lazyConnect: true });
const registries: NodeRegistry[] = [];
afterAll(async () => {
  await Promise.all(registries.map((registry) => registry.close()));
  writer.disconnect();
});

const entry = (nodeId: string, load: number) => ({
  nodeId,
  mediaUrl: `http://127.0.0.1:${5001 + load}`,
  capacity: 80,
  load,
  origins: [],
  edges: [7],
  at: new Date().toISOString(),
});

describe.skipIf(!available)('NodeRegistry (the API server side of the registry)', () => {
  it('lists the nodes whose entries are alive and fresh, skipping stale ones and what does not parse; an expired node is gone', async () => {
    const prefix = `sea:test:media-node:${randomUUID()}:`;
    const registry = new NodeRegistry({ url: REDIS_URL, prefix, ttlMs: 5_000, staleMs: 4_800 });
    registries.push(registry);
    await registry.ready();
    expect(await registry.nodes()).toEqual([]);
    await writer.set(`${prefix}a`, JSON.stringify(entry('a', 1)), 'PX', 5_000);
    // Written with a short expiry: as an entry whose heartbeats stopped (stale soon, then expired).
    await writer.set(`${prefix}b`, JSON.stringify(entry('b', 2)), 'PX', 400);
    await writer.set(`${prefix}broken`, '{"nodeId":', 'PX', 5_000);
    await writer.set(`${prefix}wrong`, JSON.stringify({ nodeId: 'x' }), 'PX', 5_000);
    await writer.set(`${prefix}stale`, JSON.stringify(entry('stale', 0)), 'PX', 150);
    const nodes = await registry.nodes();
    expect(nodes.map((node) => node.nodeId).sort()).toEqual(['a', 'b']);
    expect(nodes.find((node) => node.nodeId === 'a')).toMatchObject({ load: 1, capacity: 80, edges: [7] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await registry.nodes()).map((node) => node.nodeId)).toEqual(['a']);
  });

  it('sees only its own prefix', async () => {
    const prefix = `sea:test:media-node:${randomUUID()}:`;
    await writer.set(`sea:test:other:${randomUUID()}:a`, JSON.stringify(entry('a', 1)), 'PX', 5_000);
    const registry = new NodeRegistry({ url: REDIS_URL, prefix });
    registries.push(registry);
    await registry.ready();
    expect(await registry.nodes()).toEqual([]);
  });
});
