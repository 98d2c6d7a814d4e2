import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { asc, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helper.ts';
import { uniqueViolation } from '../users/unique-violation.ts';
import type { Database } from './database.ts';
import { MIGRATIONS_FOLDER, PGLITE_EXTENSIONS } from './open-database.ts';
import { users } from './schema.ts';

// The database of a platform that ran before nicknames were compared by what they show: look-alikes exist
// (the probe's '파도선생' + zero-width space beside the demo teacher). The migration must keep every row as it
// is and still build the unique index.

/** A migrations folder holding the real one's migrations before the one whose tag ends with `before`. */
function migrationsBefore(before: string): string {
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

type Opened = { db: Database; migrate: (folder: string) => Promise<void>; close: () => Promise<void> };

async function open(): Promise<Opened> {
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

let opened: Opened;
beforeAll(async () => {
  opened = await open();
});
afterAll(() => opened.close());

describe('the nickname key migration', () => {
  it('keeps look-alike rows as they were, marks all but the oldest, and builds the unique index', async () => {
    const { db } = opened;
    await opened.migrate(migrationsBefore('_nickname_key'));
    const rows: [string, string, string, string | null][] = [
      ['teacher', '파도선생', '2026-01-01T00:00:00Z', null],
      ['probe', '파도선생\u200b', '2026-02-01T00:00:00Z', null],
      ['filler', '파도\u3164선생', '2026-02-02T00:00:00Z', null],
      ['gone', '파도선생\u200d', '2025-12-01T00:00:00Z', '2026-01-15T00:00:00Z'],
      ['space', '등대 지기', '2026-01-01T00:00:00Z', null],
      ['wide', '등대\u3000지기', '2026-03-01T00:00:00Z', null],
      ['alone', '산호쌤', '2026-01-01T00:00:00Z', null],
    ];
    for (const [id, nickname, created, deleted] of rows) {
      await db.execute(
        sql`insert into accounts (id, provider, provider_user_id) values (${id}, 'dev', ${id})`,
      );
      await db.execute(
        sql`insert into users (id, nickname, created_at, deleted_at) values (${id}, ${nickname}, ${created}, ${deleted})`,
      );
    }

    await opened.migrate(MIGRATIONS_FOLDER);

    const after = await db
      .select({ id: users.id, nickname: users.nickname, key: users.nicknameKey, clash: users.nicknameClash })
      .from(users)
      .orderBy(asc(users.id));
    expect(after).toEqual(
      [
        { id: 'alone', nickname: '산호쌤', key: '산호쌤', clash: false },
        { id: 'filler', nickname: '파도\u3164선생', key: '파도선생', clash: true },
        { id: 'gone', nickname: '파도선생\u200d', key: '파도선생', clash: false },
        { id: 'probe', nickname: '파도선생\u200b', key: '파도선생', clash: true },
        { id: 'space', nickname: '등대 지기', key: '등대 지기', clash: false },
        { id: 'teacher', nickname: '파도선생', key: '파도선생', clash: false },
        { id: 'wide', nickname: '등대\u3000지기', key: '등대 지기', clash: true },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );

    // From now on the index holds: nobody else gets a name that looks like the teacher's.
    await db.execute(sql`insert into accounts (id, provider, provider_user_id) values ('new', 'dev', 'new')`);
    const failure = await db
      .execute(sql`insert into users (id, nickname) values ('new', ${'\u200b파도선생'})`)
      .catch((error: unknown) => error);
    expect(uniqueViolation(failure)).toBe('users_nickname_key');
  });
});
