// The media service stopped with SIGTERM while a class is live: the teacher and a student connected to it hear
// `nodeStopped`, then their connections drop as in an outage (not a server disconnect, which would end their
// room), and the node's entry leaves the Redis registry before that, so fresh tickets name another node.
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type { Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { MEDIA_REGISTRY_PREFIX } from '@sea/contract/media-registry';
import { freePort } from '@sea/service-kit/test/free-port';
import { spawnService, stopService, untilService } from '@sea/service-kit/test/service-process';
import { connectLive } from './live-socket.ts';
import { skipNotice } from './skip-notice.ts';
import { ok, signTicket, TEST_SECRET } from './test-media-server.ts';

const MEDIA_DIR = fileURLToPath(new URL('..', import.meta.url));
/** serve.ts's own limit for a stop, plus the time a process takes to go. */
const STOP_LIMIT_MS = 12_000;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
const redisUp = await redis.connect().then(
  () => true,
  () => false,
);
if (!redisUp && process.env.CI === 'true') throw new Error('CI=true: Redis is required for this test');
if (!redisUp) skipNotice('Redis is not reachable: SKIPPING the media stop test');
cleanups.push(() => redis.disconnect());

/** A client that does not reconnect: the test watches how it was dropped. */
const connect = (url: string, ticket: string): Promise<Socket> =>
  connectLive(url, ticket, (socket) => cleanups.push(() => socket.disconnect()));

describe.skipIf(!redisUp)('stopping the media service during a class', () => {
  it('tells the teacher and a student to reconnect, and leaves the registry first', async () => {
    const port = await freePort();
    const nodeId = `stop-test-${process.pid}-${port}`;
    const media = spawnService(MEDIA_DIR, {
      MEDIA_HOST: '127.0.0.1',
      MEDIA_PORT: String(port),
      MEDIA_ANNOUNCED_IP: '127.0.0.1',
      MEDIA_LISTEN_IP: '127.0.0.1',
      ICE_SERVERS: '[]',
      MEDIA_SECRET: TEST_SECRET,
      MEDIA_NODE_ID: nodeId,
      REDIS_URL,
      // Nobody there: its reports fail and are retried meanwhile.
      API_URL: 'http://127.0.0.1:9',
      MEDIA_WORKERS: '1',
    });
    cleanups.push(() => media.child.kill('SIGKILL'));
    const url = `http://127.0.0.1:${port}`;
    const key = `${MEDIA_REGISTRY_PREFIX}${nodeId}`;
    await untilService(media, async () => (await redis.exists(key)) !== 0, 'registered');

    const teacher = await connect(url, await signTicket({ role: 'teacher', classId: 31 }));
    await ok(teacher, 'startRoom', {});
    const student = await connect(url, await signTicket({ role: 'student', classId: 31, sub: 'student-1' }));
    await ok(student, 'joinRoom', {});

    // What each client saw, in order, and whether the registry still named the node when the event came.
    const seen = new Map<string, string[]>();
    for (const [who, socket] of [
      ['teacher', teacher],
      ['student', student],
    ] as const) {
      const events: string[] = [];
      seen.set(who, events);
      socket.on('nodeStopped', () => {
        events.push('nodeStopped');
        void redis.exists(key).then((n) => events.push(n === 0 ? 'unregistered' : 'still registered'));
      });
      socket.on('teacherLeft', () => events.push('teacherLeft'));
      socket.on('disconnect', (reason) => events.push(`disconnect: ${reason}`));
    }
    const stop = await stopService(media, 'SIGTERM', STOP_LIMIT_MS);
    expect(stop.code, media.stderr()).toBe(0);
    expect(stop.ms).toBeLessThan(STOP_LIMIT_MS);
    for (const who of ['teacher', 'student']) {
      // A lost transport, which the web client answers by reconnecting; not `io server disconnect`.
      expect([...(seen.get(who) ?? [])].sort(), who).toEqual(
        ['disconnect: transport close', 'nodeStopped', 'unregistered'].sort(),
      );
      expect(seen.get(who)?.[0], who).toBe('nodeStopped');
    }
    expect(await redis.exists(key)).toBe(0);
  }, 90_000);
});
