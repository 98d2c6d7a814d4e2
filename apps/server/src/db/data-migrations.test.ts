import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsBefore, openEmptyDatabase, type Opened } from '../../test/migrations.ts';
import { countSeconds } from '../attendance/watched-spans.ts';
import { uniqueViolation } from '../users/unique-violation.ts';
import { MIGRATIONS_FOLDER } from './open-database.ts';
import { replayWatches, searchTerms, users } from './schema.ts';

// Data migrations, on one empty database migrated step by step (one initdb for both: it is the slow part).
// First, a platform that ran before nicknames were compared by what they show: look-alikes exist (the
// probe's '파도선생' + zero-width space beside the demo teacher). The migration must keep every row as it is
// and still build the unique index. Then, on the same database, a platform that kept watch time as one total
// per member and session: the migration to watched seconds must keep every total (the attendance and its CSV
// show them) without inventing any.

let opened: Opened;
beforeAll(async () => {
  opened = await openEmptyDatabase();
}, 240_000);
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

    await opened.migrate(migrationsBefore('_study_progress'));

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

describe('the watched seconds migration', () => {
  it('turns each total into the replay’s first seconds, and nothing into nothing', async () => {
    const { db } = opened;
    // The database stands where the nickname test left it: just before the watched seconds.
    for (const id of ['w-teacher', 'w-a', 'w-b', 'w-c']) {
      await db.execute(
        sql`insert into accounts (id, provider, provider_user_id) values (${id}, 'dev', ${id})`,
      );
      await db.execute(sql`insert into users (id, nickname) values (${id}, ${`이름${id}`})`);
    }
    await db.execute(sql`insert into categories (id, name) values (1, '개발')`);
    await db.execute(
      sql`insert into classes (id, teacher_id, category_id, name, object, description)
          values (1, 'w-teacher', 1, '강의', '목표', '설명')`,
    );
    await db.execute(
      sql`insert into live_sessions (id, class_id, media_key, node_id, started_at)
          values (1, 1, 'key-1', 'node', now())`,
    );
    const watched: [string, number][] = [
      ['w-a', 42_900],
      ['w-b', 999],
      ['w-c', 0],
    ];
    for (const [userId, ms] of watched) {
      await db.execute(
        sql`insert into replay_watches (session_id, user_id, watched_ms, position_s, playing, last_beat_at)
            values (1, ${userId}, ${ms}, 12.5, false, now())`,
      );
    }

    await opened.migrate(MIGRATIONS_FOLDER);

    const rows = await db
      .select({
        userId: replayWatches.userId,
        watched: replayWatches.watched,
        position: replayWatches.positionS,
      })
      .from(replayWatches)
      .orderBy(asc(replayWatches.userId));
    expect(rows).toEqual([
      { userId: 'w-a', watched: [[0, 42]], position: 12.5 },
      { userId: 'w-b', watched: [], position: 12.5 },
      { userId: 'w-c', watched: [], position: 12.5 },
    ]);
    // The totals the attendance showed (whole seconds) are what it shows now.
    expect(rows.map((row) => countSeconds(row.watched))).toEqual([42, 0, 0]);
  });
});

describe('the search terms migration', () => {
  it('holds the words of the classes that stood before it', async () => {
    // The watched seconds test migrated to the end a database holding one class: its title, its teacher's
    // nickname and its category are the words typos are corrected against.
    const rows = await opened.db.select({ term: searchTerms.term }).from(searchTerms);
    expect(rows.map(({ term }) => term).sort()).toEqual(['강의', '개발', '이름w-teacher'].sort());
  });
});
