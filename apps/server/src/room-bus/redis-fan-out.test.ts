import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ChatMessage } from '@sea/contract/chat';
import { buildApp } from '../app.ts';
import { createTestDatabase, postgresAvailable, redisAvailable, testConfig } from '../../test/helper.ts';
import { createChatClass, eventually, listenForChat, TestChatClient } from '../../test/chat-clients.ts';
import { skipNotice } from '../../test/skip-notice.ts';
import { freePort } from '@sea/service-kit/test/free-port';
import { RedisFanOut } from './redis-fan-out.ts';
import type { FanOutTarget, RoomEvent } from './room-ports.ts';

// Several instances need one shared database, so this suite always uses PostgreSQL (and Redis).
const SHARED_REDIS = 'redis://127.0.0.1:6379';
const required = process.env.CI === 'true';

const services = (await postgresAvailable()) && (await redisAvailable(SHARED_REDIS));
if (!services && required) throw new Error('PostgreSQL and Redis are required when CI=true');
if (!services) skipNotice('SKIPPED: chat fan-out tests need PostgreSQL on 5432 and Redis on 6379');

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Two API instances on one fresh database and one Redis, sharing their chat channel and token secret. */
async function twoInstances(
  redisUrl: string,
  rateLimit = { capacity: 100, refillPerSecond: 100 },
): Promise<{ apps: [FastifyInstance, FastifyInstance]; urls: [string, string] }> {
  const database = await createTestDatabase();
  cleanups.push(database.drop);
  const jwtSecret = randomBytes(32).toString('hex');
  const chat = { redisChannel: `sea:chat:test:${randomUUID()}`, rateLimit };
  const apps: FastifyInstance[] = [];
  for (let i = 0; i < 2; i += 1) {
    const app = await buildApp(
      testConfig({ database: { kind: 'postgres', url: database.url }, redisUrl, jwtSecret, chat }),
      { logger: false },
    );
    cleanups.push(() => app.close());
    apps.push(app);
  }
  const [a, b] = apps as [FastifyInstance, FastifyInstance];
  return { apps: [a, b], urls: [await listenForChat(a), await listenForChat(b)] };
}

function connected(url: string, token: string): Promise<TestChatClient> {
  const client = new TestChatClient(url, token);
  cleanups.push(() => client.close());
  return client.connect().then(() => client);
}

function ids(messages: ChatMessage[]): number[] {
  return messages.map((m) => m.id);
}

describe.skipIf(!services)('chat across instances through Redis', () => {
  it('delivers what is sent on either instance to subscribers on both, exactly once', async () => {
    const { apps, urls } = await twoInstances(SHARED_REDIS);
    const { classId, teacher, student } = await createChatClass(apps[0]);
    const onFirst = await connected(urls[0], student.token);
    const onSecond = await connected(urls[1], teacher.token);
    await Promise.all([onFirst.join(classId), onSecond.join(classId)]);

    const sends: Promise<void>[] = [];
    for (let i = 0; i < 20; i += 1) {
      sends.push(onFirst.sendAndWait({ roomId: classId, content: `first ${i}` }));
      sends.push(onSecond.sendAndWait({ roomId: classId, content: `second ${i}` }));
    }
    await Promise.all(sends);
    const stored = await apps[1].inject({
      url: `/find/chat/list/${classId}`,
      headers: { authorization: `Bearer ${teacher.token}` },
    });
    const history = stored.json<ChatMessage[]>();
    expect(history).toHaveLength(40);
    const expected = ids(history).sort((x, y) => x - y);

    await eventually(() => {
      expect(ids(onFirst.messages).sort((x, y) => x - y)).toEqual(expected);
      expect(ids(onSecond.messages).sort((x, y) => x - y)).toEqual(expected);
    });
    // Give any duplicate time to arrive, then look again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(onFirst.messages).toHaveLength(40);
    expect(onSecond.messages).toHaveLength(40);
  });

  it('holds one send limit per user across instances', async () => {
    const { apps, urls } = await twoInstances(SHARED_REDIS, { capacity: 5, refillPerSecond: 0.001 });
    const { classId, student } = await createChatClass(apps[0]);
    const onFirst = await connected(urls[0], student.token);
    const onSecond = await connected(urls[1], student.token);
    await Promise.all([onFirst.join(classId), onSecond.join(classId)]);

    for (let i = 0; i < 4; i += 1) await onFirst.sendAndWait({ roomId: classId, content: `first ${i}` });
    for (let i = 0; i < 4; i += 1) onSecond.send({ roomId: classId, content: `second ${i}` });
    // One token was left for the second instance; with a limit per instance it would have had five.
    await eventually(() =>
      expect(onSecond.refusals.map((r) => r.code)).toEqual(Array(3).fill('rate-limited')),
    );
    const response = await apps[1].inject({
      url: `/find/chat/list/${classId}`,
      headers: { authorization: `Bearer ${student.token}` },
    });
    expect(response.json<ChatMessage[]>().map((m) => m.content)).toEqual([
      ...[0, 1, 2, 3].map((i) => `first ${i}`),
      'second 0',
    ]);
    expect(onFirst.refusals).toEqual([]);
  });

  it('a class deleted through one instance closes its subscribers on the other', async () => {
    const { apps, urls } = await twoInstances(SHARED_REDIS);
    const { classId, teacher, student } = await createChatClass(apps[0]);
    const elsewhere = await connected(urls[1], student.token);
    await elsewhere.join(classId);
    const response = await apps[0].inject({
      method: 'DELETE',
      url: `/api/classes/${classId}/delete`,
      headers: { authorization: `Bearer ${teacher.token}` },
    });
    expect(response.statusCode).toBe(200);
    await elsewhere.closed();
    expect(elsewhere.errors.map((frame) => frame.headers.message)).toEqual(['not a member of this class']);
  });

  it('loses no stored message when Redis stops and starts again, and delivery resumes', async () => {
    const redis = await startRedis();
    cleanups.push(redis.stop);
    const { apps, urls } = await twoInstances(redis.url);
    const { classId, teacher, student } = await createChatClass(apps[0]);
    const listener = await connected(urls[0], student.token);
    const sender = await connected(urls[1], teacher.token);
    await Promise.all([listener.join(classId), sender.join(classId)]);

    const sendBatch = async (label: string): Promise<void> => {
      for (let i = 0; i < 5; i += 1) await sender.sendAndWait({ roomId: classId, content: `${label} ${i}` });
    };
    await sendBatch('before');
    await eventually(() => expect(listener.messages).toHaveLength(5));

    await redis.stop();
    // Stored (the receipts arrive) although no other instance can hear about them yet.
    await sendBatch('during');
    expect(sender.messages).toHaveLength(10);

    await redis.start();
    await eventually(() => expect(listener.messages).toHaveLength(10), 15_000);
    await sendBatch('after');
    await eventually(() => expect(listener.messages).toHaveLength(15), 10_000);

    const response = await apps[0].inject({
      url: `/find/chat/list/${classId}`,
      headers: { authorization: `Bearer ${student.token}` },
    });
    const history = response.json<ChatMessage[]>();
    expect(history.map((m) => m.content)).toEqual(
      ['before', 'during', 'after'].flatMap((label) => [0, 1, 2, 3, 4].map((i) => `${label} ${i}`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ids(listener.messages).sort((x, y) => x - y)).toEqual(ids(history));
    expect(ids(sender.messages).sort((x, y) => x - y)).toEqual(ids(history));
  });
});

describe.skipIf(!services)('RedisFanOut', () => {
  /** A fan-out on `channel` whose instance keeps the events delivered to it. */
  async function fanOut(channel: string) {
    const delivered: RoomEvent[] = [];
    const target: FanOutTarget = {
      deliverEvent: (event) => delivered.push(event),
      suspended: () => undefined,
      resumed: () => undefined,
      recheckMemberships: () => undefined,
    };
    const instance = new RedisFanOut(target, { url: SHARED_REDIS, channel });
    cleanups.push(() => instance.close());
    await instance.ready();
    return { instance, delivered };
  }

  it('carries a burst of events to the other instance in order, every field kept', async () => {
    const channel = `sea:chat:test:${randomUUID()}`;
    const [a, b] = [await fanOut(channel), await fanOut(channel)];
    const events: RoomEvent[] = Array.from({ length: 300 }, (_, i) => ({
      destination: '/topic/polls/1',
      id: `e${i}`,
      body: { votes: i },
      ...(i % 3 === 0 ? { throttled: true as const } : {}),
      ...(i % 5 === 0 ? { student: { votes: null }, own: { userIds: ['u1'], body: { mine: i } } } : {}),
    }));
    for (const event of events) a.instance.publishEvent(event);
    await eventually(() => expect(b.delivered).toHaveLength(events.length), 10_000);
    expect(b.delivered).toEqual(events);
    expect(a.delivered).toEqual(events);
  });
});

/** A private redis-server on a free port (no persistence), which the test may stop and start again. */
async function startRedis(): Promise<{ url: string; start: () => Promise<void>; stop: () => Promise<void> }> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const url = `redis://127.0.0.1:${port}`;
  const start = async (): Promise<void> => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await eventually(async () => expect(await redisAvailable(url)).toBe(true), 10_000);
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url, start, stop };
}
