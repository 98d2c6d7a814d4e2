import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { MediaNodeEntrySchema, type MediaNodeEntry } from '@sea/contract/media-registry';
import { redisForTests, REDIS_URL } from '../../test/test-redis.ts';
import { RegistryHeartbeat } from './registry-heartbeat.ts';

const available = await redisForTests('SKIPPED: media node registry tests need Redis on 6379');

const reader = new Redis(REDIS_URL, { lazyConnect: true });
const opened: RegistryHeartbeat[] = [];
afterAll(async () => {
  await Promise.all(opened.map((heartbeat) => heartbeat.close()));
  reader.disconnect();
});

function heartbeat(prefix: string, state: { load: number }, timing = { heartbeatMs: 100, ttlMs: 400 }) {
  const beat = new RegistryHeartbeat({
    url: REDIS_URL,
    prefix,
    ...timing,
    entry: () => ({
      nodeId: 'node-a',
      mediaUrl: 'http://127.0.0.1:5001',
      capacity: 80,
      load: state.load,
      origins: [7],
      edges: [],
    }),
  });
  opened.push(beat);
  return beat;
}

async function entryOf(key: string): Promise<MediaNodeEntry | null> {
  const value = await reader.get(key);
  return value === null ? null : MediaNodeEntrySchema.parse(JSON.parse(value));
}

const until = async (check: () => Promise<boolean>, timeoutMs = 3_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.skipIf(!available)('RegistryHeartbeat (the node side of the registry)', () => {
  it('joins the registry, rewrites the entry at once on a change and on every beat, expires when it stops', async () => {
    const prefix = `sea:test:media-node:${randomUUID()}:`;
    const key = `${prefix}node-a`;
    const state = { load: 0 };
    const beat = heartbeat(prefix, state);
    beat.start();
    await until(async () => (await entryOf(key)) !== null);
    expect(await entryOf(key)).toMatchObject({ nodeId: 'node-a', capacity: 80, load: 0, origins: [7] });
    // A student came: written at once, well before the next beat would.
    state.load = 1;
    beat.changed();
    await beat.settled();
    expect((await entryOf(key))?.load).toBe(1);
    // The heartbeat keeps the entry past its expiry.
    const first = (await entryOf(key))?.at;
    await new Promise((resolve) => setTimeout(resolve, 600));
    const later = await entryOf(key);
    expect(later).not.toBeNull();
    expect(later?.at).not.toBe(first);
    expect(await reader.pttl(key)).toBeGreaterThan(0);
    expect(await reader.pttl(key)).toBeLessThanOrEqual(400);
  });

  it('a node that stops beating (a dead node) drops out when its entry expires', async () => {
    const prefix = `sea:test:media-node:${randomUUID()}:`;
    const key = `${prefix}node-a`;
    // A beat far slower than the expiry: as if the process had frozen or died after its first write.
    const beat = heartbeat(prefix, { load: 3 }, { heartbeatMs: 60_000, ttlMs: 300 });
    beat.start();
    await until(async () => (await entryOf(key)) !== null);
    const since = Date.now();
    await until(async () => (await entryOf(key)) === null);
    expect(Date.now() - since).toBeLessThan(1_000);
  });

  it('tells whether another node runs: a fresh entry other than its own', async () => {
    const prefix = `sea:test:media-node:${randomUUID()}:`;
    const beat = heartbeat(prefix, { load: 0 }, { heartbeatMs: 50, ttlMs: 5_000 });
    beat.start();
    await until(async () => (await entryOf(`${prefix}node-a`)) !== null);
    // Alone (its own entry, and something that is not an entry).
    await reader.set(`${prefix}junk`, 'not json', 'PX', 5_000);
    expect(await beat.othersRunning()).toBe(false);
    // Another node's entry, written now.
    const other = { nodeId: 'node-b', mediaUrl: 'http://127.0.0.1:5002', capacity: 80, load: 0 };
    const entry = { ...other, origins: [], edges: [], at: new Date().toISOString() };
    await reader.set(`${prefix}node-b`, JSON.stringify(entry), 'PX', 5_000);
    expect(await beat.othersRunning()).toBe(true);
    // Its entry gone stale (it missed its beats): no other node runs.
    await reader.set(`${prefix}node-b`, JSON.stringify(entry), 'PX', 1_000);
    expect(await beat.othersRunning()).toBe(false);
  });

  it('says no other node runs when the registry stops answering, within its bound', async () => {
    // A Redis that answers the client's setup (HELLO, CLIENT, INFO: the ready check), then nothing more.
    const info = '# Server\r\nloading:0\r\n';
    const silent = net.createServer((socket) => {
      socket.on('data', (chunk) => {
        for (const [, command] of chunk.toString().matchAll(/\*\d+\r\n\$\d+\r\n(\w+)/g)) {
          const name = (command ?? '').toLowerCase();
          if (name === 'hello')
            socket.write("-ERR unknown command 'hello'\r\n"); // an older Redis: RESP2
          else if (name === 'client') socket.write('+OK\r\n');
          else if (name === 'info') socket.write(`$${info.length}\r\n${info}\r\n`);
        }
      });
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const beat = new RegistryHeartbeat({
      url: `redis://127.0.0.1:${port}`,
      warn: () => undefined,
      entry: () => ({
        nodeId: 'node-a',
        mediaUrl: 'http://127.0.0.1:5001',
        capacity: 80,
        load: 0,
        origins: [],
        edges: [],
      }),
    });
    try {
      await until(async () => beat.isReady, 3_000);
      const since = performance.now();
      expect(await beat.othersRunning(300)).toBe(false);
      expect(performance.now() - since).toBeLessThan(1_000);
    } finally {
      beat.close().catch(() => undefined);
      silent.close();
    }
  });

  it('close removes the entry at once and writes no more', async () => {
    const prefix = `sea:test:media-node:${randomUUID()}:`;
    const key = `${prefix}node-a`;
    const beat = heartbeat(prefix, { load: 0 }, { heartbeatMs: 50, ttlMs: 5_000 });
    beat.start();
    await until(async () => (await entryOf(key)) !== null);
    await beat.close();
    expect(await entryOf(key)).toBeNull();
    beat.changed();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await entryOf(key)).toBeNull();
  });
});

describe.skipIf(!available)('finding a class’s new origin (an edge that lost its origin)', () => {
  it('names a live node holding the class, never the node itself, the lost origin only once it wrote again', async () => {
    const prefix = `sea:test:media-node:${randomUUID()}:`;
    const node = (nodeId: string, port: number, origins: number[]) => {
      // Beats only when told: the test decides when each entry is written.
      const beat = new RegistryHeartbeat({
        url: REDIS_URL,
        prefix,
        heartbeatMs: 60_000,
        ttlMs: 20_000,
        entry: () => ({
          nodeId,
          mediaUrl: `http://127.0.0.1:${port}`,
          capacity: 80,
          load: 0,
          origins,
          edges: [],
        }),
      });
      opened.push(beat);
      beat.start();
      return beat;
    };
    node('node-a', 5001, [7]);
    const self = node('node-c', 5003, [7]);
    const other = node('node-d', 5004, [8]);
    for (const nodeId of ['node-a', 'node-c', 'node-d']) {
      await until(async () => (await entryOf(`${prefix}${nodeId}`)) !== null);
    }
    const find = self.originFinder('http://127.0.0.1:5003');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const lost = { url: 'http://127.0.0.1:5001', lostAt: performance.now() };
    // The lost origin's entry is still fresh, but written before the loss; the edge itself does not count.
    expect(await find(7, lost)).toBeNull();
    // The teacher went to node B, which became the origin.
    node('node-b', 5002, [7]);
    await until(async () => (await find(7, lost)) !== null);
    expect(await find(7, lost)).toBe('http://127.0.0.1:5002');
    expect(await find(8, lost)).toBe('http://127.0.0.1:5004');
    expect(await find(9, lost)).toBeNull();
    // The lost origin came back (restarted at the same address, the teacher with it): it counts again.
    const since = { url: 'http://127.0.0.1:5004', lostAt: performance.now() - 1 };
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await find(8, since)).toBeNull();
    other.changed();
    await other.settled();
    expect(await find(8, since)).toBe('http://127.0.0.1:5004');
  });
});
