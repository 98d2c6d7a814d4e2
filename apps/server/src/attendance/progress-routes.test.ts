import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ROUTES, toPath } from '@sea/contract/paths';
import {
  PROGRESS_CSV_HEADER,
  type ClassProgress,
  type ClassProgressOfStudents,
} from '@sea/contract/progress';
import type { WatchBeat } from '@sea/contract/sessions';
import { appWithClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, createUser, type TestUser } from '../../test/helper.ts';
import { insertSession } from '../../test/sessions.ts';
import { replayWatches } from '../db/schema.ts';
import { creditBeat } from './watch-time.ts';

const { app, teacher, student, classId } = await appWithClass();
const other = await createUser(app, { nickname: '가나다' });
await insertEnrolment(app, classId, other.id);
const stranger = await createUser(app);

const get = (user?: TestUser, query = '', id = classId) =>
  app.inject({ url: toPath(ROUTES.progress, { classId: id }) + query, headers: user ? bearer(user) : {} });

const hour = 3600_000;
const start = Date.now() - 10 * hour;
// Two replays students can watch (24 s, then 100 s), one hidden and one still processing.
const first = await insertSession(app, classId, {
  startedAt: new Date(start),
  title: '1강',
  replayDurationMs: 24_000,
});
const second = await insertSession(app, classId, {
  startedAt: new Date(start + 2 * hour),
  replayDurationMs: 100_000,
});
await insertSession(app, classId, {
  startedAt: new Date(start + 4 * hour),
  hidden: true,
  replayDurationMs: 9_000,
});
await insertSession(app, classId, { startedAt: new Date(start + 6 * hour), recordingState: 'processing' });

/** A beat of `student` on `session` at second `s` of the test's clock. */
function beat(session: { id: number; replayDurationMs: number | null }, s: number, body: WatchBeat) {
  const at = new Date(Date.parse('2026-03-07T10:00:00Z') + s * 1000);
  return creditBeat(app.db, session.id, student.id, body, at, session.replayDurationMs);
}

describe('progress', () => {
  it('counts each second once under seeking and two tabs; 90 % completes; the class weighs by length', async () => {
    // The first replay: 0 to 10, a seek to 20 after a second more, on to the end, then 0 to 5 again.
    await beat(first, 0, { position_s: 0, playing: true });
    await beat(first, 5, { position_s: 5, playing: true, from_s: 0 });
    await beat(first, 10, { position_s: 10, playing: true, from_s: 5 });
    await beat(first, 11, { position_s: 20, playing: true, from_s: 10 });
    await beat(first, 15, { position_s: 24, playing: true, from_s: 20 });
    await beat(first, 16, { position_s: 0, playing: true, from_s: 24 });
    await beat(first, 21, { position_s: 5, playing: true, from_s: 0 });
    // Seconds 0-10 and 20-23: 15 of 24.
    let own = expectOk<ClassProgress>(await get(student));
    expect(own.sessions).toEqual([
      {
        session_id: first.id,
        title: '1강',
        started_at: first.startedAt.toISOString(),
        length_ms: 24_000,
        percent: 62,
        last_position_ms: 5_000,
        completed: false,
        last_watched_at: '2026-03-07T10:00:21.000Z',
      },
      expect.objectContaining({
        session_id: second.id,
        percent: 0,
        last_position_ms: 0,
        last_watched_at: null,
      }),
    ]);

    // The second replay in two tabs at once, one from the start and one from the middle, beating in turn.
    await beat(second, 100, { position_s: 0, playing: true });
    await beat(second, 102.5, { position_s: 50, playing: true });
    for (let k = 1; k <= 10; k += 1) {
      await beat(second, 100 + 5 * k, { position_s: 5 * k, playing: true, from_s: 5 * (k - 1) });
      await beat(second, 102.5 + 5 * k, { position_s: 50 + 5 * k, playing: true, from_s: 45 + 5 * k });
    }
    own = expectOk<ClassProgress>(await get(student));
    expect(own.sessions[1]).toMatchObject({ percent: 100, completed: true, last_position_ms: 100_000 });
    const [stored] = await app.db
      .select({ watched: replayWatches.watched })
      .from(replayWatches)
      .where(and(eq(replayWatches.sessionId, second.id), eq(replayWatches.userId, student.id)));
    expect(stored?.watched).toEqual([[0, 100]]);
    // 115 of the class's 124 seconds.
    expect(own.class_percent).toBe(92);

    const all = expectOk<ClassProgressOfStudents>(await get(teacher));
    expect(new Map(all.students.map((row) => [row.user_id, row.class_percent]))).toEqual(
      new Map([
        [other.id, 0],
        [student.id, 92],
      ]),
    );
  });

  it('completes a replay at 90 %', async () => {
    const session = await insertSession(app, classId, {
      startedAt: new Date(start + 8 * hour),
      replayDurationMs: 10_000,
    });
    await beat(session, 200, { position_s: 0, playing: true });
    await beat(session, 204.5, { position_s: 8.9, playing: true, from_s: 0 });
    const row = async () => expectOk<ClassProgress>(await get(student)).sessions.at(-1);
    expect(await row()).toMatchObject({ percent: 80, completed: false });
    await beat(session, 205, { position_s: 9.2, playing: true, from_s: 8.9 });
    expect(await row()).toMatchObject({ percent: 90, completed: true });
  });

  it('gives the teacher a CSV with a Korean file name', async () => {
    const response = await get(teacher, '?format=csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="progress-${classId}.csv"; filename*=UTF-8''${encodeURIComponent(`진도율-${classId}.csv`)}`,
    );
    const lines = response.rawPayload.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe(PROGRESS_CSV_HEADER.join(','));
    expect(lines.slice(1, 3).sort()).toEqual(['가나다,0,0,3', `${student.nickname},92,2,3`].sort());
  });

  it('refuses: no token 401, a stranger 418, a student’s CSV 418, an unknown class 404, a bad format 400', async () => {
    expectError(await get(), 401);
    expectError(await get(stranger), 418);
    expectError(await get(student, '?format=csv'), 418);
    expectError(await get(teacher, '', 999_999), 404);
    expectError(await get(teacher, '?format=xls'), 400);
  });
});
