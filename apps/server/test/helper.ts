import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { buildApp } from '../src/app.ts';
import type { Config, DatabaseConfig } from '../src/config.ts';
import { accounts, users } from '../src/db/schema.ts';
import { NO_WRITE_LIMITS } from '../src/write-limits.ts';
import { pgliteTemplate } from './pglite-template.ts';
import { postgresTemplate } from './postgres-template.ts';

/** The PostgreSQL server tests create their databases on (trust auth, database `test`). */
export const ADMIN_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A configuration for tests: nothing read from the environment, no files, demo data off. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = path.join(os.tmpdir(), `sea-test-${randomUUID()}`);
  return {
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'http://localhost:5000',
    dataDir,
    database: { kind: 'pglite', dir: null },
    redisUrl: null,
    demoData: false,
    production: false,
    trustProxy: false,
    corsOrigins: [],
    metricsAllow: [],
    jwtSecret: randomBytes(32).toString('hex'),
    kakao: {
      restApiKey: null,
      jsKey: null,
      clientSecret: null,
      authUrl: 'http://127.0.0.1:9',
      apiUrl: 'http://127.0.0.1:9',
    },
    storage: { kind: 'local' },
    uploadDir: path.join(dataDir, 'uploads'),
    mediaUrl: 'http://localhost:5001',
    mediaOrigins: [],
    mediaSecret: randomBytes(32).toString('hex'),
    iceServers: [],
    webDist: path.join(dataDir, 'no-web-dist'),
    logLevel: 'silent',
    // Tests write straight to the database; the read cache has its own tests.
    readCacheMs: 0,
    // Tests write a lot as one user; the write limits have their own tests (src/write-limits.test.ts).
    writeLimits: NO_WRITE_LIMITS,
    recordingsDir: path.join(dataDir, 'recordings'),
    replaysDir: path.join(dataDir, 'replays'),
    ffmpegPath: null,
    // Jobs run only where a test asks for them (replays spawn ffmpeg).
    jobConcurrency: 0,
    ...overrides,
  };
}

/** True when the PostgreSQL server answers. */
export async function postgresAvailable(url = ADMIN_DATABASE_URL): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** True when Redis answers a PING at `url` (tests that need it skip, or fail when CI=true, otherwise). */
export async function redisAvailable(
  url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2000,
  });
  client.on('error', () => undefined); // reported through the failed ping below
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * Creates a PostgreSQL database for one test file and returns its URL and a function that drops it: empty, or
 * with `migrated` a copy of the migrated template (what an app would make of an empty one at its start).
 * When CI=true a missing PostgreSQL is an error, never a skip.
 */
export async function createTestDatabase({ migrated = false } = {}): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  const name = `sea_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(ADMIN_DATABASE_URL, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    const template = migrated ? ` template ${await postgresTemplate(ADMIN_DATABASE_URL)}` : '';
    await admin.unsafe(`create database ${name}${template}`);
  } catch (error) {
    await admin.end({ timeout: 1 });
    throw new Error(`PostgreSQL is required for TEST_DATABASE=postgres (${ADMIN_DATABASE_URL})`, {
      cause: error,
    });
  }
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      try {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end({ timeout: 1 });
      }
    },
  };
}

/** The database of a test app: in-memory PGlite, or a fresh PostgreSQL database when TEST_DATABASE=postgres. */
async function testDatabase(): Promise<{ database: DatabaseConfig; drop: () => Promise<void> }> {
  if (process.env.TEST_DATABASE !== 'postgres') {
    return {
      database: { kind: 'pglite', dir: null, snapshot: await pgliteTemplate() },
      drop: async () => {},
    };
  }
  const { url, drop } = await createTestDatabase({ migrated: true });
  return { database: { kind: 'postgres', url }, drop };
}

/**
 * Builds an app on a fresh database; `app.close()` also drops that database. `prepare` runs before the app is
 * ready (to add hooks, or rows that must be there at start-up).
 */
export async function buildTestApp(
  overrides: Partial<Config> = {},
  prepare?: (app: FastifyInstance) => void | Promise<void>,
): Promise<FastifyInstance> {
  const { database, drop } = await testDatabase();
  const app = await buildApp(testConfig({ database, ...overrides }), { logger: false });
  app.addHook('onClose', drop);
  await prepare?.(app);
  await app.ready();
  return app;
}

export type TestUser = { id: string; nickname: string; email: string | null; token: string };

let userCounter = 0;

/** Inserts an account and a registered user directly, and mints its access token. */
export async function createUser(
  app: FastifyInstance,
  fields: { nickname?: string; email?: string | null } = {},
): Promise<TestUser> {
  userCounter += 1;
  const id = randomUUID();
  const nickname = fields.nickname ?? `user${userCounter}${randomBytes(2).toString('hex')}`;
  const email = fields.email === undefined ? null : fields.email;
  await app.db.insert(accounts).values({ id, provider: 'dev', providerUserId: `test-${id}` });
  await app.db.insert(users).values({ id, nickname, email });
  return { id, nickname, email, token: await app.tokens.signAccess(id) };
}

/** An account that logged in but never signed up, with its access token. */
export async function createAccount(app: FastifyInstance): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  await app.db.insert(accounts).values({ id, provider: 'dev', providerUserId: `test-${id}` });
  return { id, token: await app.tokens.signAccess(id) };
}

/** The Authorization header of a user's access token. */
export function bearer(user: { token: string }): { authorization: string } {
  return { authorization: `Bearer ${user.token}` };
}
