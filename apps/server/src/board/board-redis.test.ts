import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  BOARD_INK_DESTINATION,
  BOARD_PAGE_DESTINATION,
  BOARD_WRITER_DESTINATION,
  type BoardEvent,
  type BoardSnapshot,
  boardTopic,
} from '@sea/contract/board';
import { HAND_RAISE_DESTINATION } from '@sea/contract/classroom';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { insertReadyMaterial, penPiece } from '../../test/board.ts';
import { createChatClass, eventually, listenForChat, TestChatClient } from '../../test/chat-clients.ts';
import { openLiveSession } from '../../test/classroom.ts';
import {
  bearer,
  createTestDatabase,
  postgresAvailable,
  redisAvailable,
  testConfig,
  type TestUser,
} from '../../test/helper.ts';
import { skipNotice } from '../../test/skip-notice.ts';

// Several instances, and one instance after another, need one shared database: PostgreSQL (and Redis).
const SHARED_REDIS = 'redis://127.0.0.1:6379';
const services = (await postgresAvailable()) && (await redisAvailable(SHARED_REDIS));
if (!services && process.env.CI === 'true') throw new Error('PostgreSQL and Redis are required when CI=true');
if (!services)
  skipNotice('SKIPPED: board fan-out and restart tests need PostgreSQL on 5432 and Redis on 6379');

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A config of instances sharing one database, one secret and one Redis channel. */
async function sharedConfig(): Promise<Config> {
  const database = await createTestDatabase();
  cleanups.push(database.drop);
  return testConfig({
    database: { kind: 'postgres', url: database.url },
    redisUrl: SHARED_REDIS,
    jwtSecret: randomBytes(32).toString('hex'),
    chat: {
      redisChannel: `sea:chat:test:${randomUUID()}`,
      rateLimit: { capacity: 100, refillPerSecond: 100 },
    },
  });
}

async function started(config: Config): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildApp(config, { logger: false });
  cleanups.push(() => app.close());
  return { app, url: await listenForChat(app) };
}

async function joined(url: string, user: TestUser, classId: number): Promise<TestChatClient> {
  const client = new TestChatClient(url, user.token);
  cleanups.push(() => client.close());
  await client.connect();
  await client.join(classId);
  return client;
}

describe.skipIf(!services)('the board across instances', () => {
  it('carries a stroke drawn on one instance to a student on the other, and the writer between them', async () => {
    const config = await sharedConfig();
    const first = await started(config);
    const second = await started(config);
    const { classId, teacher, student } = await createChatClass(first.app);
    const materialId = await insertReadyMaterial(first.app, classId, ['a', 'b']);
    await openLiveSession(first.app, classId);
    const teacherClient = await joined(first.url, teacher, classId);
    const studentClient = await joined(second.url, student, classId);
    const seen = (await studentClient.watch(boardTopic(classId))) as BoardEvent[];

    await teacherClient.request(BOARD_PAGE_DESTINATION, { roomId: classId, materialId, page: 2 });
    const at = { materialId, page: 2, strokeId: 'r1' };
    await teacherClient.request(BOARD_INK_DESTINATION, penPiece(classId, at, 5));
    await teacherClient.request(BOARD_INK_DESTINATION, penPiece(classId, at, 5, { from: 5, done: true }));
    await eventually(() => expect(seen).toHaveLength(3));
    expect(seen.map((event) => event.type)).toEqual(['stage', 'ink', 'ink']);

    // Invited on the first instance, the student writes through the second (within its second of belief).
    await studentClient.request(HAND_RAISE_DESTINATION, { roomId: classId, raised: true });
    expect(
      await teacherClient.request(BOARD_WRITER_DESTINATION, { roomId: classId, userId: student.id }),
    ).toBeNull();
    await eventually(async () => {
      const mine = penPiece(classId, { ...at, strokeId: `s${Date.now()}` }, 2, { done: true });
      expect(await studentClient.request(BOARD_INK_DESTINATION, mine)).toBeNull();
    }, 3_000);
  });

  it('keeps the ink of a lecture across a restart, and the stroke goes on where it was', async () => {
    const config = await sharedConfig();
    const before = await started(config);
    const { classId, teacher, student } = await createChatClass(before.app);
    await openLiveSession(before.app, classId);
    const teacherClient = await joined(before.url, teacher, classId);
    await teacherClient.request(BOARD_PAGE_DESTINATION, { roomId: classId, materialId: 0, page: 1 });
    const at = { materialId: 0, page: 1, strokeId: 'long' };
    expect(await teacherClient.request(BOARD_INK_DESTINATION, penPiece(classId, at, 150))).toBeNull();
    await teacherClient.close();
    await before.app.close();

    const after = await started(config);
    const read = await after.app.inject({ url: `/api/classes/${classId}/board`, headers: bearer(student) });
    const snapshot = read.json<{ data: BoardSnapshot }>().data;
    expect(snapshot.stage).toEqual({ material_id: 0, page: 1, blank_pages: 1, layout: 'board' });
    expect(snapshot.strokes.map((stroke) => [stroke.stroke_id, stroke.points.length, stroke.done])).toEqual([
      ['long', 150, false],
    ]);
    const again = await joined(after.url, teacher, classId);
    const studentClient = await joined(after.url, student, classId);
    const seen = (await studentClient.watch(boardTopic(classId))) as BoardEvent[];
    expect(
      await again.request(BOARD_INK_DESTINATION, penPiece(classId, at, 10, { from: 150, done: true })),
    ).toBeNull();
    await eventually(() =>
      expect(seen[0]).toMatchObject({ type: 'ink', strokeId: 'long', from: 150, done: true }),
    );
  });
});
