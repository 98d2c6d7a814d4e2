import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import pino from 'pino';
import { redisAvailable } from '../../test/helper.ts';
import { MediaPlacement } from './media-placement.ts';
import { NodeRegistry } from './node-registry.ts';
import { skipNotice } from '../../test/skip-notice.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const available = await redisAvailable(REDIS_URL);
if (!available && process.env.CI === 'true') throw new Error('Redis is required when CI=true');
if (!available) skipNotice('SKIPPED: media placement tests need Redis on 6379');

const log = pino({ level: 'silent' });
const writer = new Redis(REDIS_URL, { lazyConnect: true });
const registries: NodeRegistry[] = [];
afterAll(async () => {
  await Promise.all(registries.map((registry) => registry.close()));
  writer.disconnect();
});

const DEFAULT_URL = 'http://localhost:5001';

async function register(prefix: string, nodeId: string, port: number, more: object) {
  const entry = {
    nodeId,
    mediaUrl: `http://127.0.0.1:${port}`,
    capacity: 2,
    load: 0,
    origins: [],
    edges: [],
    at: new Date().toISOString(),
    ...more,
  };
  await writer.set(`${prefix}${nodeId}`, JSON.stringify(entry), 'PX', 5_000);
}

/**
 * A placement on a registry of its own whose gone check answers from `gone` (changeable) and notes every node
 * it was asked about.
 */
async function checkedPlacement(goneIds: string[]) {
  const prefix = `sea:test:media-node:${randomUUID()}:`;
  const registry = new NodeRegistry({ url: REDIS_URL, prefix });
  registries.push(registry);
  await registry.ready();
  const gone = new Set(goneIds);
  const checked: string[] = [];
  const placement = new MediaPlacement(registry, DEFAULT_URL, log, async (nodeId) => {
    checked.push(nodeId);
    return gone.has(nodeId);
  });
  return { prefix, registry, placement, checked, gone };
}

describe('MediaPlacement without a registry (no REDIS_URL)', () => {
  it('names MEDIA_URL for everybody, as with one node', async () => {
    const placement = new MediaPlacement(null, DEFAULT_URL, log);
    expect(await placement.target(7, 'teacher')).toEqual({ mediaUrl: DEFAULT_URL });
    expect(await placement.target(7, 'student')).toEqual({ mediaUrl: DEFAULT_URL });
  });
});

describe.skipIf(!available)('MediaPlacement with the Redis registry', () => {
  it('teacher on the roomiest node; students on the origin until full, then on an edge naming the origin', async () => {
    const prefix = `sea:test:media-node:${randomUUID()}:`;
    const registry = new NodeRegistry({ url: REDIS_URL, prefix });
    registries.push(registry);
    await registry.ready();
    const placement = new MediaPlacement(registry, DEFAULT_URL, log);
    // No node: as before.
    expect(await placement.target(7, 'teacher')).toEqual({ mediaUrl: DEFAULT_URL });
    await register(prefix, 'a', 6001, { load: 1 });
    await register(prefix, 'b', 6002, { load: 0 });
    expect(await placement.target(7, 'teacher')).toEqual({ mediaUrl: 'http://127.0.0.1:6002' });
    // The class is not live anywhere yet: the student is told so by the default node.
    expect(await placement.target(7, 'student')).toEqual({ mediaUrl: DEFAULT_URL });
    await register(prefix, 'b', 6002, { load: 1, origins: [7] });
    expect(await placement.target(7, 'student')).toEqual({ mediaUrl: 'http://127.0.0.1:6002' });
    await register(prefix, 'b', 6002, { load: 2, origins: [7] });
    expect(await placement.target(7, 'student')).toEqual({
      mediaUrl: 'http://127.0.0.1:6001',
      origin: 'http://127.0.0.1:6002',
    });
    // The teacher reconnecting goes back to the full origin.
    expect(await placement.target(7, 'teacher')).toEqual({ mediaUrl: 'http://127.0.0.1:6002' });
  });

  it('a node found gone is left out for the teacher and removed from the registry, unless it wrote again', async () => {
    const { prefix, registry, placement, checked, gone } = await checkedPlacement(['a']);
    // The origin a died (its entry still fresh); b and c are edges of the class, b the roomier.
    await register(prefix, 'a', 6001, { load: 1, origins: [7] });
    await register(prefix, 'b', 6002, { load: 0, edges: [7] });
    await register(prefix, 'c', 6003, { load: 1, edges: [7] });
    expect(await placement.target(7, 'teacher')).toEqual({ mediaUrl: 'http://127.0.0.1:6002' });
    expect(checked).toEqual(['a', 'b']);
    expect(await writer.exists(`${prefix}a`)).toBe(0);
    // Students and other readers no longer see it: until the teacher is on b, students wait in b's room.
    expect(await placement.target(7, 'student')).toEqual({ mediaUrl: 'http://127.0.0.1:6002' });

    // Every node gone: nothing to place on, as without nodes.
    gone.add('b').add('c');
    expect(await placement.target(7, 'teacher')).toEqual({ mediaUrl: DEFAULT_URL });
    expect(await writer.exists(`${prefix}b`, `${prefix}c`)).toBe(0);

    // An entry rewritten since it was read (the node is back) stays.
    await register(prefix, 'd', 6004, { at: '2026-01-01T00:00:00.000Z' });
    await register(prefix, 'd', 6004, {});
    await registry.forget({ nodeId: 'd', at: '2026-01-01T00:00:00.000Z' });
    expect(await writer.exists(`${prefix}d`)).toBe(1);
  });

  it("a student's node is checked only when the client could not reach it, and left out if gone", async () => {
    const { prefix, placement, checked, gone } = await checkedPlacement(['e']);
    // The origin o is full; the edge e (dead, its entry still fresh, places left) and the spare node s.
    await register(prefix, 'o', 6001, { load: 2, origins: [7] });
    await register(prefix, 'e', 6002, { load: 1, capacity: 9, edges: [7] });
    await register(prefix, 's', 6003, { load: 0 });
    const edge = { mediaUrl: 'http://127.0.0.1:6002', origin: 'http://127.0.0.1:6001' };
    // Nothing said: the edge of the class is named, unchecked.
    expect(await placement.target(7, 'student')).toEqual(edge);
    // Another node said unreachable: nothing is checked.
    expect(await placement.target(7, 'student', 'http://127.0.0.1:6003')).toEqual(edge);
    expect(checked).toEqual([]);
    // The edge said unreachable but alive (a client's own trouble): named again.
    gone.delete('e');
    expect(await placement.target(7, 'student', edge.mediaUrl)).toEqual(edge);
    expect(checked).toEqual(['e']);
    // Gone: left out and removed, for every later ticket too.
    gone.add('e');
    const spare = { mediaUrl: 'http://127.0.0.1:6003', origin: 'http://127.0.0.1:6001' };
    expect(await placement.target(7, 'student', edge.mediaUrl)).toEqual(spare);
    expect(await writer.exists(`${prefix}e`)).toBe(0);
    expect(await placement.target(7, 'student')).toEqual(spare);
  });

  it('falls back to MEDIA_URL when the registry cannot be read', async () => {
    const registry = new NodeRegistry({ url: 'redis://127.0.0.1:1' });
    registries.push(registry);
    const placement = new MediaPlacement(registry, DEFAULT_URL, log);
    expect(await placement.target(7, 'student')).toEqual({ mediaUrl: DEFAULT_URL });
  });
});
