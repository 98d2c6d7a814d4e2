import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsBefore, openEmpty, type Opened } from '../../test/migrations.ts';
import { countSeconds } from '../attendance/watched-spans.ts';
import { MIGRATIONS_FOLDER } from './open-database.ts';
import { replayWatches } from './schema.ts';

// A platform that kept watch time as one total per member and session: the migration to watched seconds
// must keep every total (the attendance and its CSV show them) without inventing any.

let opened: Opened;
beforeAll(async () => {
  opened = await openEmpty();
});
afterAll(() => opened.close());

describe('the watched seconds migration', () => {
  it('turns each total into the replay’s first seconds, and nothing into nothing', async () => {
    const { db } = opened;
    await opened.migrate(migrationsBefore('_study_progress'));
    for (const id of ['teacher', 'a', 'b', 'c']) {
      await db.execute(
        sql`insert into accounts (id, provider, provider_user_id) values (${id}, 'dev', ${id})`,
      );
      await db.execute(sql`insert into users (id, nickname) values (${id}, ${`이름${id}`})`);
    }
    await db.execute(sql`insert into categories (id, name) values (1, '개발')`);
    await db.execute(
      sql`insert into classes (id, teacher_id, category_id, name, object, description)
          values (1, 'teacher', 1, '강의', '목표', '설명')`,
    );
    await db.execute(
      sql`insert into live_sessions (id, class_id, media_key, node_id, started_at)
          values (1, 1, 'key-1', 'node', now())`,
    );
    const watched: [string, number][] = [
      ['a', 42_900],
      ['b', 999],
      ['c', 0],
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
      { userId: 'a', watched: [[0, 42]], position: 12.5 },
      { userId: 'b', watched: [], position: 12.5 },
      { userId: 'c', watched: [], position: 12.5 },
    ]);
    // The totals the attendance showed (whole seconds) are what it shows now.
    expect(rows.map((row) => countSeconds(row.watched))).toEqual([42, 0, 0]);
  });
});
