import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { DatabaseConfig } from '../config.ts';
import { SERVER_FOLDER } from '../server-folder.ts';
import type { Database } from './database.ts';
import * as schema from './schema.ts';
import { seedCategories } from './seed-categories.ts';

export type OpenDatabase = { db: Database; close: () => Promise<void> };

const MIGRATION_LOCK = 727_274;
/**
 * How long the health check waits for `select 1`: a database that hangs (a stalled network, every pooled
 * connection stuck) is as unavailable to a load balancer as one that refuses, and its probe must not hang too.
 */
const HEALTH_DEADLINE_MS = 3_000;
const MIGRATIONS = path.join(SERVER_FOLDER, 'drizzle');

/** The extensions the migrations create, which PGlite ships as separate modules to load at start. */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** Opens the database, applies pending migrations and seeds the categories. */
export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase> {
  const opened =
    config.kind === 'pglite' ? await openPglite(config.dir, config.snapshot) : await openPostgres(config.url);
  try {
    await seedCategories(opened.db);
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
}

/**
 * PGlite's PostgreSQL settings for one in-process user: PostgreSQL's defaults (128 MB of shared buffers) are
 * sized for a server of many connections, and PGlite holds them in the API server's own memory (issue 34,
 * light servers). 16 MB of buffers hold the working set of a platform of 10 000 classes' lists and search.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'work_mem=2MB'];

async function openPglite(dir: string | null, snapshot?: Blob): Promise<OpenDatabase> {
  if (dir !== null) fs.mkdirSync(dir, { recursive: true });
  const options = { extensions: PGLITE_EXTENSIONS, startParams: PGLITE_START_PARAMS };
  const client =
    dir !== null
      ? new PGlite(dir, options)
      : snapshot
        ? new PGlite({ loadDataDir: snapshot, ...options })
        : new PGlite(options);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS });
  // Closing an instance that already stopped is not an error: shutdown must still finish.
  const close = async () => {
    if (!client.closed) await client.close();
  };
  return { db: db as unknown as Database, close };
}

/** A migrated, seeded in-memory PGlite data folder as a tarball: a template that skips initdb. */
export async function pgliteSnapshot(): Promise<Blob> {
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
  try {
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder: MIGRATIONS });
    await seedCategories(db as unknown as Database);
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

/** The migrations folder (its contents identify a schema version). */
export const MIGRATIONS_FOLDER = MIGRATIONS;

/**
 * A postgres.js client as the server uses it. `fetch_types: false`: postgres.js otherwise sends its own catalog
 * query (array types) as the first statement of every new connection and drops that query's promise, so a
 * connection cut or ended at that moment (a database failover, or a close while the pool grows) surfaces as an
 * unhandled rejection that no caller can catch and that stops a Node process (porsager/postgres#1192). The
 * schema has no PostgreSQL array columns (lists are jsonb), so nothing needs those types.
 */
export function postgresClient(url: string, max: number): postgres.Sql {
  return postgres(url, { max, onnotice: () => {}, fetch_types: false });
}

async function openPostgres(url: string): Promise<OpenDatabase> {
  // Several servers may start at once: one migrates while the others wait on the lock, on one connection.
  const migrator = postgresClient(url, 1);
  try {
    await migrator`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres(migrator), { migrationsFolder: MIGRATIONS });
  } finally {
    await migrator.end({ timeout: 5 });
  }
  const client = postgresClient(url, 20);
  const db = drizzlePostgres(client, { schema });
  return { db: db as unknown as Database, close: () => client.end({ timeout: 5 }) };
}

/** True when the database answers a trivial query within `deadlineMs`. */
export async function isDatabaseUp(db: Database, deadlineMs = HEALTH_DEADLINE_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), deadlineMs);
  });
  const answered = db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}
