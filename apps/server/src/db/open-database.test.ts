import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CATEGORY_NAMES } from '@sea/contract/categories';
import { ADMIN_DATABASE_URL, postgresAvailable } from '../../test/helper.ts';
import { skipNotice } from '../../test/skip-notice.ts';
import { TcpProxy } from '../../test/tcp-proxy.ts';
import type { Database } from './database.ts';
import { isDatabaseUp, openDatabase, postgresClient } from './open-database.ts';
import { accounts, categories } from './schema.ts';

describe('openDatabase (PGlite)', () => {
  it('migrates, seeds the 25 categories in order, and keeps data across reopening', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-pglite-'));
    const first = await openDatabase({ kind: 'pglite', dir });
    const rows = await first.db.select().from(categories).orderBy(asc(categories.id));
    expect(rows.map((r) => r.name)).toEqual([...CATEGORY_NAMES]);
    expect(rows.map((r) => r.id)).toEqual(CATEGORY_NAMES.map((_, i) => i + 1));
    await first.db.insert(accounts).values({ id: 'a1', provider: 'dev', providerUserId: '1' });
    await first.close();

    const second = await openDatabase({ kind: 'pglite', dir });
    expect(await second.db.select().from(accounts)).toHaveLength(1);
    expect(await second.db.select().from(categories)).toHaveLength(25);
    await second.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('isDatabaseUp', () => {
  it('answers false once its deadline passes when the database never answers', async () => {
    const hanging = { execute: () => new Promise<never>(() => undefined) } as unknown as Database;
    const started = performance.now();
    expect(await isDatabaseUp(hanging, 100)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('answers false when the query fails and true when it answers', async () => {
    const failing = { execute: () => Promise.reject(new Error('gone')) } as unknown as Database;
    expect(await isDatabaseUp(failing, 1_000)).toBe(false);
    const answering = { execute: () => Promise.resolve([]) } as unknown as Database;
    expect(await isDatabaseUp(answering, 1_000)).toBe(true);
  });
});

describe('postgresClient', () => {
  it('a connection cut while it is being set up fails only the query that waits on it', async (context) => {
    if (!(await postgresAvailable())) {
      if (process.env.CI === 'true') throw new Error('CI=true: PostgreSQL is required');
      skipNotice('PostgreSQL is not reachable: SKIPPING the connection-setup test');
      return context.skip();
    }
    const target = new URL(ADMIN_DATABASE_URL);
    const proxy = new TcpProxy(
      { host: target.hostname, port: Number(target.port) },
      { cutAtFirstQuery: true },
    );
    await proxy.start();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const url = new URL(ADMIN_DATABASE_URL);
    url.port = String(proxy.port);
    const client = postgresClient(url.href, 1);
    try {
      await expect(client`select 1`).rejects.toThrow();
      // A dropped promise's rejection is reported on a later turn of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await client.end({ timeout: 1 });
      await proxy.stop();
    }
  }, 10_000);
});
