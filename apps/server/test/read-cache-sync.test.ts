import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassItem } from '@sea/contract/classes';
import { buildApp } from '../src/app.ts';
import { insertClass } from './classes.ts';
import { expectOk } from './expect-envelope.ts';
import {
  bearer,
  createTestDatabase,
  createUser,
  postgresAvailable,
  redisAvailable,
  testConfig,
} from './helper.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const available = (await postgresAvailable()) && (await redisAvailable(REDIS_URL));
if (!available && process.env.CI === 'true') throw new Error('CI=true: PostgreSQL and Redis are required');
if (!available)
  console.warn('PostgreSQL or Redis is not reachable: SKIPPING the cross-server read cache test');

describe.skipIf(!available)('read cache across two servers sharing Redis', () => {
  const apps: FastifyInstance[] = [];
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    const shared = {
      database: { kind: 'postgres' as const, url: database.url },
      redisUrl: REDIS_URL,
      readCacheMs: 60_000,
      readCacheChannel: `sea-test:read-cache:${randomUUID()}`,
      jwtSecret: 'j'.repeat(40),
    };
    for (let i = 0; i < 2; i += 1) apps.push(await buildApp(testConfig(shared), { logger: false }));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await drop();
  });

  it('a write through one server clears the other’s cache at once', async () => {
    const [first, second] = apps as [FastifyInstance, FastifyInstance];
    const teacher = await createUser(first);
    const classId = await insertClass(first, teacher.id);
    const count = async () =>
      expectOk<ClassItem>(await second.inject(`/api/classes/${classId}`)).student_count;
    expect(await count()).toBe(0);
    const student = await createUser(first);
    expectOk(
      await first.inject({ method: 'POST', url: `/api/classes/${classId}/enroll`, headers: bearer(student) }),
    );
    let seen = 0;
    for (let attempt = 0; attempt < 50 && seen !== 1; attempt += 1) {
      seen = await count();
      if (seen !== 1) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen).toBe(1);
  });
});
