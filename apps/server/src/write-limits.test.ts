import net from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from './config.ts';
import { accounts, users } from './db/schema.ts';
import { WRITE_LIMITS } from './write-limits.ts';
import { classDto, insertClass, insertEnrolment, postClass } from '../test/classes.ts';
import { expectError, expectOk } from '../test/expect-envelope.ts';
import {
  bearer,
  buildTestApp,
  createAccount,
  createUser,
  redisAvailable,
  type TestUser,
} from '../test/helper.ts';
import { postSignup } from '../test/login.ts';
import { jpeg } from '../test/images.ts';
import { imagePart, jsonPart, multipart, type Part } from '../test/multipart.ts';
import { storedFiles } from '../test/uploads-dir.ts';
import { skipNotice } from '../test/skip-notice.ts';

// The write limits of write-limits.ts: 10 class creations an hour, 30 image-taking edits per 10 minutes
// per route, 10 sign-up attempts an hour, 20 enrolments and 20 cancellations an hour; per user, shared through Redis when REDIS_URL is set.

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const redisUp = await redisAvailable(REDIS_URL);
if (!redisUp && process.env.CI === 'true') throw new Error('CI=true: Redis is required');
if (!redisUp) skipNotice('Redis is not reachable: SKIPPING the shared write-limit tests');

const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

/** A server with the production limits (test apps otherwise widen them). */
async function start(overrides: Partial<Config> = {}): Promise<FastifyInstance> {
  const app = await buildTestApp({ writeLimits: WRITE_LIMITS, ...overrides });
  apps.push(app);
  return app;
}

function expectLimited(response: LightMyRequestResponse): void {
  const body = expectError(response, 429);
  expect(body.message_kor).toBe('요청이 너무 많아요. 잠시 후 다시 시도해 주세요.');
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

function patchProfile(app: FastifyInstance, user: TestUser, email: string, extra: Part[] = []) {
  const { payload, headers } = multipart([jsonPart('userUpdateDTO', { email }), ...extra]);
  return app.inject({
    method: 'PATCH',
    url: '/api/users',
    payload,
    headers: { ...headers, ...bearer(user) },
  });
}

describe('write limits per user (in memory)', () => {
  // One server for these tests: each uses users of its own.
  let memoryApp: Promise<FastifyInstance> | undefined;
  const server = () => (memoryApp ??= start());

  it('class creation: 10 an hour per user, then the 429 envelope; another user is not affected', async () => {
    const app = await server();
    const [teacher, other] = [await createUser(app), await createUser(app)];
    for (let i = 0; i < 10; i += 1) expectOk(await postClass(app, teacher, classDto({ name: `강의 ${i}` })));
    const limited = await postClass(app, teacher, classDto());
    expectLimited(limited);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
    expectOk(await postClass(app, other, classDto()));
  });

  it('image-taking edits: 30 per 10 minutes on each route, refused before the upload is read', async () => {
    const app = await server();
    const teacher = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    for (let i = 0; i < 30; i += 1) expectOk(await patchProfile(app, teacher, `a${i}@example.com`));
    const files = await storedFiles(app);
    expectLimited(await patchProfile(app, teacher, 'late@example.com', [imagePart(await jpeg(64, 64))]));
    expect(await storedFiles(app)).toEqual(files);
    // The class edit counts on its own.
    const { payload, headers } = multipart([jsonPart('classroomUpdateDto', { name: '새 제목' })]);
    const edit = () =>
      app.inject({
        method: 'PATCH',
        url: `/api/classes/${classId}`,
        payload,
        headers: { ...headers, ...bearer(teacher) },
      });
    for (let i = 0; i < 30; i += 1) expectOk(await edit());
    expectLimited(await edit());
  });

  it('sign-up: 10 attempts an hour per login account, whatever their answers', async () => {
    const app = await server();
    const account = await createAccount(app);
    expectOk(await postSignup(app, account.token, '가입한 사람'));
    for (let i = 0; i < 9; i += 1) expectError(await postSignup(app, account.token, '가입한 사람'), 409);
    expectLimited(await postSignup(app, account.token, '가입한 사람'));
  });
});

describe.skipIf(!redisUp)('write limits shared through Redis', () => {
  /** Two servers with their own databases and one Redis, the same token secret and the same user. */
  async function twoServers(): Promise<{ servers: FastifyInstance[]; user: TestUser }> {
    const shared = {
      redisUrl: REDIS_URL,
      rateLimitNamespace: `sea-test:${randomUUID()}:`,
      readCacheChannel: `sea-test:${randomUUID()}`,
      chat: { redisChannel: `sea-test:${randomUUID()}` },
      jwtSecret: randomBytes(32).toString('hex'),
    };
    const servers = [await start(shared), await start(shared)];
    const id = randomUUID();
    for (const server of servers) {
      await server.db.insert(accounts).values({ id, provider: 'dev', providerUserId: `shared-${id}` });
      await server.db.insert(users).values({ id, nickname: `공유${id.slice(0, 8)}` });
    }
    const token = await servers[0]?.tokens.signAccess(id);
    return { servers, user: { id, nickname: '', email: null, token: token ?? '' } };
  }

  it('counts a user across servers: 10 class creations in all, the 11th refused on either', async () => {
    const { servers, user } = await twoServers();
    const [first, second] = servers as [FastifyInstance, FastifyInstance];
    for (let i = 0; i < 10; i += 1) expectOk(await postClass(i % 2 === 0 ? first : second, user, classDto()));
    expectLimited(await postClass(first, user, classDto()));
    expectLimited(await postClass(second, user, classDto()));
  });

  it('lets writes through while Redis cannot be reached, rather than failing them', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const app = await start({ redisUrl: `redis://127.0.0.1:${closedPort}` });
    const teacher = await createUser(app);
    for (let i = 0; i < 11; i += 1) expectOk(await postClass(app, teacher, classDto()));
  });
});

describe('enrolment flips', () => {
  it('enrolling and cancelling: 20 an hour each per account, then the 429 envelope', async () => {
    const app = await start();
    const teacher = await createUser(app);
    const student = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    const enrol = (method: 'POST' | 'DELETE', user = student) =>
      app.inject({ method, url: `/api/classes/${classId}/enroll`, headers: bearer(user) });
    for (let flip = 0; flip < WRITE_LIMITS.enrolment.max; flip += 1) {
      expectOk(await enrol('POST'));
      expectOk(await enrol('DELETE'));
    }
    expectLimited(await enrol('POST'));
    expectLimited(await enrol('DELETE'));
    // Another student is not affected.
    expectOk(await enrol('POST', await createUser(app)));
  });
});

describe('review writes', () => {
  it('posting, editing and replying a review are limited per account, each on its own; reading stays open', async () => {
    const app = await start({ writeLimits: { ...WRITE_LIMITS, review: { max: 3, timeWindow: '1 hour' } } });
    const teacher = await createUser(app);
    const student = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    await insertEnrolment(app, classId, student.id);
    const content = '파도처럼 시원한 강의였어요. 추천해요!';
    const write = (method: 'POST' | 'PATCH', url: string, payload: object) =>
      app.inject({ method, url, payload, headers: bearer(student) });
    const posted = expectOk<{ id: number }>(
      await write('POST', `/api/classes/${classId}/reviews`, { rating: 5, content }),
    );
    const review = `/api/classes/${classId}/reviews/${posted.id}`;
    expectOk(await write('PATCH', review, { rating: 4 }));
    expectOk(await write('PATCH', review, { rating: 3 }));
    expectOk(await write('PATCH', review, { rating: 2 }));
    expectLimited(await write('PATCH', review, { rating: 1 }));
    expectOk(await app.inject(`/api/classes/${classId}/reviews`));
    // The teacher's reply counts for the teacher, not the student.
    expectOk(
      await app.inject({
        method: 'POST',
        url: `${review}/reply`,
        payload: { content: '고마워요!' },
        headers: bearer(teacher),
      }),
    );
  });
});
