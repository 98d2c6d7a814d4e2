import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsBefore, openEmpty, type Opened } from '../../test/migrations.ts';
import { uniqueViolation } from '../users/unique-violation.ts';
import { MIGRATIONS_FOLDER } from './open-database.ts';
import { users } from './schema.ts';

// The database of a platform that ran before nicknames were compared by what they show: look-alikes exist
// (the probe's '파도선생' + zero-width space beside the demo teacher). The migration must keep every row as it
// is and still build the unique index.

let opened: Opened;
beforeAll(async () => {
  opened = await openEmpty();
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
