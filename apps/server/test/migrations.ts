import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { Database } from '../src/db/database.ts';
import { MIGRATIONS_FOLDER, PGLITE_EXTENSIONS } from '../src/db/open-database.ts';
import { createTestDatabase } from './helper.ts';

// Migration tests: an empty database of the run's kind (PGlite, or PostgreSQL under TEST_DATABASE=postgres),
// migrated up to a point, filled as an older platform left it, then migrated to the end.

/** A migrations folder holding the real one's migrations before the one whose tag ends with `before`. */
export function migrationsBefore(before: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-migrations-'));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex(({ tag }) => tag.endsWith(before)),
  );
  fs.mkdirSync(path.join(folder, 'meta'));
  fs.writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  for (const { tag } of journal.entries) {
    fs.copyFileSync(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  }
  return folder;
}

export type Opened = { db: Database; migrate: (folder: string) => Promise<void>; close: () => Promise<void> };

export async function openEmptyDatabase(): Promise<Opened> {
  if (process.env.TEST_DATABASE !== 'postgres') {
    // An empty PGlite runs initdb first (tens of seconds on a busy machine): here, under the hook's timeout.
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
    await client.waitReady;
    const db = drizzlePglite(client);
    return {
      db: db as unknown as Database,
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const { url, drop } = await createTestDatabase();
  const client = postgres(url, { max: 1, onnotice: () => {} });
  const db = drizzlePostgres(client);
  return {
    db: db as unknown as Database,
    migrate: (folder) => migratePostgres(db, { migrationsFolder: folder }),
    close: async () => {
      await client.end({ timeout: 5 });
      await drop();
    },
  };
}
