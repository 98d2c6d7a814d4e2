import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_DATABASE_URL, buildTestApp } from '../../test/helper.ts';
import { expectError } from '../../test/expect-envelope.ts';

describe('health and unknown paths (no web build)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it('GET /health answers 200 OK while the database answers', async () => {
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('OK');
  });

  it.each(['/api/nothing', '/find/nothing', '/internal/nothing', '/some/page'])(
    '%s answers a 404 envelope',
    async (url) => {
      expectError(await app.inject({ method: 'GET', url }), 404);
    },
  );

  it('an unknown method on a known path answers a 404 envelope', async () => {
    expectError(await app.inject({ method: 'DELETE', url: '/health' }), 404);
  });
});

/** The name of the app's own PostgreSQL test database. */
function databaseName(app: FastifyInstance): string {
  const { database } = app.config;
  if (database.kind !== 'postgres') throw new Error('the app is not on PostgreSQL');
  return new URL(database.url).pathname.slice(1);
}

/** The app's PGlite instance behind drizzle. */
function embeddedClient(app: FastifyInstance): PGlite {
  return (app.db as unknown as { $client: PGlite }).$client;
}

describe('GET /health when the database is down', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const health = () => app.inject({ method: 'GET', url: '/health' });
  const expectDown = async () => {
    const response = await health();
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toBe('Database unavailable');
  };

  if (process.env.TEST_DATABASE === 'postgres') {
    it('answers 503 while PostgreSQL refuses the database, and 200 again once it is back', async () => {
      expect((await health()).statusCode).toBe(200);
      const name = databaseName(app);
      const admin = postgres(ADMIN_DATABASE_URL, { max: 1, onnotice: () => {} });
      try {
        // The outage: no new connections, and the server's open ones are cut.
        await admin.unsafe(`alter database "${name}" allow_connections false`);
        await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`;
        await expectDown();
        await expectDown();
        await admin.unsafe(`alter database "${name}" allow_connections true`);
        expect((await health()).body).toBe('OK');
      } finally {
        await admin.unsafe(`alter database "${name}" allow_connections true`);
        await admin.end({ timeout: 1 });
      }
    });
  } else {
    it('answers 503 once the embedded database has stopped', async () => {
      expect((await health()).statusCode).toBe(200);
      await embeddedClient(app).close();
      await expectDown();
      // The server itself still answers everything else.
      expectError(await app.inject({ method: 'GET', url: '/api/nothing' }), 404);
    });
  }
});

describe.runIf(process.env.TEST_DATABASE === 'postgres')('GET /health when PostgreSQL hangs', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());
  const health = () => app.inject({ method: 'GET', url: '/health' });

  it('answers 503 after its deadline while every pooled connection is stuck, and 200 once they are free', async () => {
    // The pool holds 20 connections: 20 sleeps of 5 s leave the health query queued behind them.
    // (`.then` starts them: drizzle's queries run only once awaited.)
    const stuck = Array.from({ length: 20 }, () =>
      app.db.execute(sql`select pg_sleep(5)`).then(() => undefined),
    );
    const started = performance.now();
    const response = await health();
    const waited = performance.now() - started;
    expect(response.statusCode).toBe(503);
    expect(response.body).toBe('Database unavailable');
    expect(waited).toBeGreaterThan(2_500);
    expect(waited).toBeLessThan(4_500);
    await Promise.all(stuck);
    expect((await health()).body).toBe('OK');
  }, 15_000);
});

describe('the built web app', () => {
  let app: FastifyInstance;
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-web-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>바다학원</title>');
    fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
    app = await buildTestApp({ webDist });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('serves index.html for unknown page paths, never cached', async () => {
    const response = await app.inject({ method: 'GET', url: '/lecture/info/3' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('바다학원');
  });

  it('serves hashed assets with a long cache lifetime', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('still answers unknown API paths with a 404 envelope', async () => {
    expectError(await app.inject({ method: 'GET', url: '/api/unknown' }), 404);
  });

  it('answers a non-GET unknown path with a 404 envelope', async () => {
    expectError(await app.inject({ method: 'POST', url: '/lecture/info/3' }), 404);
  });
});
