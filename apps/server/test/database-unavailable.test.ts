import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { RETRY_AFTER_SECONDS } from '../src/errors.ts';
import { classDto, insertClass, postClass } from './classes.ts';
import { expectError, expectOk } from './expect-envelope.ts';
import {
  ADMIN_DATABASE_URL,
  bearer,
  buildTestApp,
  createTestDatabase,
  createUser,
  postgresAvailable,
  testConfig,
  type TestUser,
} from './helper.ts';
import { TcpProxy } from './tcp-proxy.ts';

const postgresUp = await postgresAvailable();
if (!postgresUp && process.env.CI === 'true') throw new Error('CI=true: PostgreSQL is required');
if (!postgresUp) console.warn('PostgreSQL is not reachable: SKIPPING the unreachable-PostgreSQL test');

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Routes of every kind: a public read, a bearer read (its auth hook reads the user), writes. */
function requests(app: FastifyInstance, user: TestUser, classId: number) {
  return {
    'GET /api/classes': () => app.inject({ url: '/api/classes' }),
    'GET /api/classes/{id}': () => app.inject({ url: `/api/classes/${classId}` }),
    'GET /api/users': () => app.inject({ url: '/api/users', headers: bearer(user) }),
    'POST /api/classes': () => postClass(app, user, classDto()),
    'POST /api/classes/{id}/enroll': () =>
      app.inject({ method: 'POST', url: `/api/classes/${classId}/enroll`, headers: bearer(user) }),
  } satisfies Record<string, () => Promise<LightMyRequestResponse>>;
}

function expectUnavailable(response: LightMyRequestResponse): void {
  const body = expectError(response, 503);
  expect(body.error).toBe('Service Unavailable');
  expect(body.message_eng).not.toMatch(/ECONN|PGlite|postgres|CONNECTION/i);
  expect(response.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
}

describe('the database going away answers 503 with Retry-After on API routes', () => {
  it('when the database client is closed under the server (PGlite, or postgres.js ended)', async () => {
    const app = await buildTestApp();
    cleanups.push(() => app.close());
    const user = await createUser(app);
    const classId = await insertClass(app, (await createUser(app)).id);
    expectOk(await app.inject({ url: `/api/classes/${classId}` }));

    // postgres.js ends for good with end() (its close() reconnects on the next query); PGlite has close().
    const client = (
      app.db as unknown as { $client: { close: () => Promise<void>; end?: () => Promise<void> } }
    ).$client;
    await (client.end ? client.end() : client.close());

    for (const [name, send] of Object.entries(requests(app, user, classId))) {
      const response = await send();
      expect(response.statusCode, name).toBe(503);
      expectUnavailable(response);
    }
  });

  it.skipIf(!postgresUp)(
    'when PostgreSQL drops every connection and refuses new ones, and again 200 once it is back',
    async () => {
      const database = await createTestDatabase();
      cleanups.push(database.drop);
      const admin = new URL(ADMIN_DATABASE_URL);
      const proxy = new TcpProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
      await proxy.start();
      cleanups.push(() => proxy.stop());
      const url = new URL(database.url);
      url.port = String(proxy.port);
      const app = await buildApp(testConfig({ database: { kind: 'postgres', url: url.toString() } }), {
        logger: false,
      });
      cleanups.push(() => app.close());
      const user = await createUser(app);
      const classId = await insertClass(app, (await createUser(app)).id);
      const routes = requests(app, user, classId);
      expectOk(await routes['GET /api/users']());

      await proxy.stop();
      for (const [name, send] of Object.entries(routes)) {
        const response = await send();
        expect(response.statusCode, name).toBe(503);
        expectUnavailable(response);
      }
      expect((await app.inject({ url: '/health' })).statusCode).toBe(503);

      await proxy.start();
      expectOk(await routes['GET /api/users']());
      expectOk(await routes['GET /api/classes/{id}']());
    },
  );
});
