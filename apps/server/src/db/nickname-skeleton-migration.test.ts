import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsBefore, openEmptyDatabase, type Opened } from '../../test/migrations.ts';
import { uniqueViolation } from '../users/unique-violation.ts';
import { skeletonMap, skeletonOf } from './nickname-skeleton.ts';
import { MIGRATIONS_FOLDER } from './open-database.ts';
import { users } from './schema.ts';

// The database of a platform that ran before nicknames were compared by their skeleton: 'admin' and its
// Cyrillic look-alike both exist. The migration keeps every row, marks the younger, and builds the index.

let opened: Opened;
// An empty PGlite runs initdb and every migration: minutes when the machine is busy.
beforeAll(async () => {
  opened = await openEmptyDatabase();
}, 240_000);
afterAll(() => opened.close());

describe('the nickname skeleton migration', () => {
  it('backfills the skeleton, marks all but the oldest look-alike, and builds the unique index', async () => {
    const { db } = opened;
    await opened.migrate(migrationsBefore('_nickname_skeleton'));
    const rows: [string, string, string][] = [
      ['first', 'admin', '2026-01-01T00:00:00Z'],
      ['cyrillic', 'аdmin', '2026-02-01T00:00:00Z'],
      ['wide', 'ａｄｍｉｎ', '2026-03-01T00:00:00Z'],
      ['korean', '파도선생', '2026-01-01T00:00:00Z'],
    ];
    for (const [id, nickname, created] of rows) {
      await db.execute(
        sql`insert into accounts (id, provider, provider_user_id) values (${id}, 'dev', ${id})`,
      );
      await db.execute(
        sql`insert into users (id, nickname, created_at) values (${id}, ${nickname}, ${created})`,
      );
    }

    await opened.migrate(MIGRATIONS_FOLDER);

    const after = await db
      .select({
        id: users.id,
        nickname: users.nickname,
        skeleton: users.nicknameSkeleton,
        clash: users.nicknameClash,
      })
      .from(users)
      .orderBy(asc(users.id));
    expect(after).toEqual([
      { id: 'cyrillic', nickname: 'аdmin', skeleton: 'adrnin', clash: true },
      { id: 'first', nickname: 'admin', skeleton: 'adrnin', clash: false },
      // The skeleton is in NFD (UTS #39), so its Hangul is in jamo: internal, never shown.
      { id: 'korean', nickname: '파도선생', skeleton: '파도선생'.normalize('NFD'), clash: false },
      { id: 'wide', nickname: 'ａｄｍｉｎ', skeleton: 'adrnin', clash: true },
    ]);

    await db.execute(sql`insert into accounts (id, provider, provider_user_id) values ('new', 'dev', 'new')`);
    const failure = await db
      .execute(sql`insert into users (id, nickname) values ('new', ${'admi\u0301n'})`)
      .catch((error: unknown) => error);
    expect(uniqueViolation(failure)).toBe('users_nickname_key');
  });

  it("the database's skeleton is the reference one for every mapped character", async () => {
    const map = skeletonMap();
    const samples = [
      ...[...map.keys()].map((character) => `a${character}b`),
      '각까',
      '갂가',
      'Nguyễn 선생',
      '🐳 고래',
      'ℜ𝘂ᖯʏ',
    ];
    const result = await opened.db.execute<{ skeleton: string }>(
      sql`select nickname_skeleton_of(sample) as skeleton
          from jsonb_array_elements_text(${JSON.stringify(samples)}::jsonb) with ordinality as s(sample, n) order by n`,
    );
    const rows = Array.isArray(result) ? result : (result as { rows: { skeleton: string }[] }).rows;
    const mismatches = samples
      .map((sample, i) => [sample, rows[i]?.skeleton, skeletonOf(sample, map)] as const)
      .filter(([, database, reference]) => database !== reference);
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(rows).toHaveLength(samples.length);
  });
});
