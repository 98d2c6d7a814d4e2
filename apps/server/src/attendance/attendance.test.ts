import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTENDANCE_CSV_HEADER, type Attendance } from '@sea/contract/attendance';
import type { MediaNodeReport, MediaRoom } from '@sea/contract/media-nodes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';
import { FakeNode, room as roomOf } from '../../test/media-node-report.ts';
import { insertSession } from '../../test/sessions.ts';
import { attendance, enrolments, liveSessions, replayWatches } from '../db/schema.ts';
import { applyReport } from '../media-nodes/apply-report.ts';
import { withdraw } from '../users/withdraw.ts';
import { creditBeat } from './watch-time.ts';

let app: FastifyInstance;
let teacher: TestUser;
let alice: TestUser;
let bora: TestUser;
let stranger: TestUser;
beforeAll(async () => {
  app = await buildTestApp();
  teacher = await createUser(app, { nickname: '김선생' });
  alice = await createUser(app, { nickname: '나학생' });
  bora = await createUser(app, { nickname: '가학생' });
  stranger = await createUser(app);
});
afterAll(() => app.close());

/** A media node run whose reports are applied at the given times. */
function node() {
  const id = `node-${randomUUID().slice(0, 8)}`;
  const boot = randomUUID();
  let seq = 0;
  return (
    at: Date,
    rooms: MediaRoom[],
    closed: MediaNodeReport['closed'] = [],
    edges: MediaNodeReport['edges'] = [],
  ) => {
    seq += 1;
    const report: MediaNodeReport = {
      url: 'http://127.0.0.1:9',
      boot,
      bootedAt: new Date(Date.parse('2026-03-02T04:00:00Z')).toISOString(),
      seq,
      rooms,
      closed,
      edges,
    };
    return applyReport(app.db, id, report, at);
  };
}

async function newClass(): Promise<number> {
  const classId = await insertClass(app, teacher.id, { name: '노션으로 하루 정리' });
  await insertEnrolment(app, classId, alice.id);
  await insertEnrolment(app, classId, bora.id);
  return classId;
}

const get = (classId: number, user?: TestUser, query = '') =>
  app.inject({ url: `${toPath(ROUTES.attendance, { classId })}${query}`, headers: user ? bearer(user) : {} });

describe('attendance from the media node reports', () => {
  it('records every join and leave at the report’s time and closes stays at the session’s end', async () => {
    const classId = await newClass();
    const start = new Date('2026-03-02T05:00:00Z');
    const at = (s: number) => new Date(start.getTime() + s * 1000);
    const sessionKey = randomUUID();
    const room = (students: string[]): MediaRoom => ({
      classId,
      sessionKey,
      startedAt: start.toISOString(),
      recording: false,
      students,
    });
    const report = node();
    await report(at(0), [room([])]);
    await report(at(10), [room([alice.id])]);
    await report(at(20), [room([alice.id, bora.id])]);
    await report(at(25), [room([bora.id, alice.id])]); // nothing changes
    await report(at(30), [room([bora.id])]);
    await report(at(40), [room([bora.id, alice.id])]);
    const [session] = await app.db.select().from(liveSessions).where(eq(liveSessions.mediaKey, sessionKey));
    if (session === undefined) throw new Error('no session');

    // While live: open stays count up to now, and show no leave yet.
    const live = expectOk<Attendance>(await get(classId, teacher));
    const aliceLive = live.rows.find((row) => row.user_id === alice.id);
    expect(aliceLive?.joins.at(-1)?.left_at).toBeNull();

    await report(at(60), [], [{ ...room([]), endedAt: at(60).toISOString() }]);

    const rows = await app.db.select().from(attendance).where(eq(attendance.sessionId, session.id));
    expect(rows.every((row) => row.leftAt !== null)).toBe(true);
    const record = expectOk<Attendance>(await get(classId, teacher));
    expect(record.sessions).toEqual([
      { id: session.id, started_at: start.toISOString(), ended_at: at(60).toISOString(), title: null },
    ]);
    // Rows by nickname in Korean order: 가학생 (bora) before 나학생 (alice).
    expect(record.rows).toEqual([
      {
        session_id: session.id,
        user_id: bora.id,
        nickname: '가학생',
        status: 'present',
        joins: [{ joined_at: at(20).toISOString(), left_at: at(60).toISOString() }],
        live_watch_s: 40,
        replay_watch_s: 0,
        replay_percent: null,
      },
      {
        session_id: session.id,
        user_id: alice.id,
        nickname: '나학생',
        status: 'present',
        joins: [
          { joined_at: at(10).toISOString(), left_at: at(30).toISOString() },
          { joined_at: at(40).toISOString(), left_at: at(60).toISOString() },
        ],
        live_watch_s: 40,
        replay_watch_s: 0,
        replay_percent: null,
      },
    ]);
  });

  it('ends open stays when the node no longer lists the session (crash, sweep)', async () => {
    const classId = await newClass();
    const start = new Date('2026-03-02T06:00:00Z');
    const at = (s: number) => new Date(start.getTime() + s * 1000);
    const sessionKey = randomUUID();
    const report = node();
    await report(at(0), [
      { classId, sessionKey, startedAt: start.toISOString(), recording: false, students: [alice.id] },
    ]);
    await report(at(15), []);
    const record = expectOk<Attendance>(await get(classId, teacher));
    expect(record.rows.map((row) => [row.user_id, row.joins, row.live_watch_s])).toEqual([
      [alice.id, [{ joined_at: at(0).toISOString(), left_at: at(15).toISOString() }], 15],
    ]);
  });
});

describe('attendance of a class served by several media nodes', () => {
  it('counts an edge’s students once, follows a student between nodes, and ends an edge’s stays', async () => {
    const classId = await newClass();
    const start = new Date('2026-03-02T07:00:00Z');
    const at = (s: number) => new Date(start.getTime() + s * 1000);
    const sessionKey = randomUUID();
    const room = (students: string[]): MediaRoom => ({
      classId,
      sessionKey,
      startedAt: start.toISOString(),
      recording: false,
      students,
    });
    const origin = node();
    const edge = node();
    await origin(at(0), [room([alice.id])]);
    await edge(at(5), [], [], [{ classId, students: [bora.id] }]);
    // The origin's reports list only its own students: the edge's student stays.
    await origin(at(10), [room([alice.id])]);
    // Alice's client moves to the edge (a second connection seen by both nodes for a moment): one stay.
    await edge(at(20), [], [], [{ classId, students: [bora.id, alice.id] }]);
    await origin(at(21), [room([])]);
    await origin(at(25), [room([])]);
    const [session] = await app.db.select().from(liveSessions).where(eq(liveSessions.mediaKey, sessionKey));
    if (session === undefined) throw new Error('no session');
    const open = await app.db.select().from(attendance).where(eq(attendance.sessionId, session.id));
    expect(open.map((row) => [row.userId, row.leftAt]).sort()).toEqual(
      [
        [alice.id, null],
        [bora.id, null],
      ].sort(),
    );
    // The edge no longer relays the class: its students leave at that report.
    await edge(at(30), [], [], []);
    await origin(at(40), [], [{ ...room([]), endedAt: at(40).toISOString() }]);
    const record = expectOk<Attendance>(await get(classId, teacher));
    expect(record.rows.map((row) => [row.user_id, row.joins, row.live_watch_s])).toEqual([
      [bora.id, [{ joined_at: at(5).toISOString(), left_at: at(30).toISOString() }], 25],
      [alice.id, [{ joined_at: at(0).toISOString(), left_at: at(30).toISOString() }], 30],
    ]);
  });

  it('a withdrawn student on an edge is revoked in the answer to the edge’s report', async () => {
    const classId = await newClass();
    const start = new Date('2026-03-02T08:00:00Z');
    const origin = node();
    const edge = node();
    await origin(start, [
      { classId, sessionKey: randomUUID(), startedAt: start.toISOString(), recording: false, students: [] },
    ]);
    const outcome = await edge(
      new Date(start.getTime() + 1_000),
      [],
      [],
      [{ classId, students: [alice.id, stranger.id] }],
    );
    expect(outcome.revocation.students).toEqual([{ classId, userId: stranger.id }]);
  });
});

describe('attendance through the report route', () => {
  it('a student seen in the reports attends until the room closes; live time sums the stay', async () => {
    const classId = await newClass();
    const fake = new FakeNode(app);
    const live = roomOf(classId, { recording: false, startedAt: new Date(Date.now() - 5_000).toISOString() });
    await fake.report({ rooms: [live] });
    const joined = Date.now();
    await fake.report({ rooms: [{ ...live, students: [alice.id, stranger.id] }] });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const during = expectOk<Attendance>(await get(classId, alice));
    expect(during.rows).toHaveLength(1);
    expect(during.rows[0]?.joins).toEqual([{ joined_at: expect.any(String), left_at: null }]);
    expect(during.rows[0]?.live_watch_s).toBeGreaterThanOrEqual(1);
    await fake.report({ closed: [{ ...live, endedAt: new Date().toISOString() }] });
    const after = expectOk<Attendance>(await get(classId, teacher));
    // The stranger (never enrolled; the node is told to remove them) is still a row of what happened; bora,
    // enrolled, never came: 결석.
    expect(after.rows.map((row) => row.user_id).sort()).toEqual([alice.id, bora.id, stranger.id].sort());
    expect(after.rows.find((row) => row.user_id === bora.id)?.status).toBe('absent');
    const stay = after.rows.find((row) => row.user_id === alice.id);
    expect(stay?.joins[0]?.left_at).not.toBeNull();
    const seconds =
      (Date.parse(stay?.joins[0]?.left_at ?? '') - Date.parse(stay?.joins[0]?.joined_at ?? '')) / 1000;
    expect(stay?.live_watch_s).toBe(Math.floor(seconds));
    expect(Math.abs(Date.parse(stay?.joins[0]?.joined_at ?? '') - joined)).toBeLessThan(1_000);
  });
});

describe('replay watch time', () => {
  it('credits the seconds played, each once, at most the wall clock a beat, over seeks and two tabs', async () => {
    const classId = await newClass();
    const session = await insertSession(app, classId);
    const t0 = Date.parse('2026-03-03T10:00:00Z');
    const beat = (s: number, position: number, playing: boolean, from?: number) =>
      creditBeat(
        app.db,
        session.id,
        alice.id,
        { position_s: position, playing, ...(from === undefined ? {} : { from_s: from }) },
        new Date(t0 + s * 1000),
      );
    const spans = async () => {
      const [row] = await app.db.select().from(replayWatches).where(eq(replayWatches.sessionId, session.id));
      return row?.watched;
    };

    expect(await beat(0, 0, true)).toEqual({ watched_s: 0, position_s: 0 });
    expect((await beat(5, 5, true)).watched_s).toBe(5);
    // Seeking ahead 10 minutes while playing: the 2 s really played count, from where the player was.
    expect(await beat(7, 607, true)).toEqual({ watched_s: 7, position_s: 607 });
    expect(await spans()).toEqual([[0, 7]]);
    // The pause beat ends the playing stretch; the pause and the first beat playing again count nothing.
    expect((await beat(9, 609, false)).watched_s).toBe(7);
    expect((await beat(30, 609, false)).watched_s).toBe(7);
    expect((await beat(31, 609, true)).watched_s).toBe(7);
    // A second tab starts at 100 and both play, beating in between with their own `from_s`: the seconds each
    // played count, each once.
    await beat(33.5, 100, true);
    for (let k = 1; k <= 2; k += 1) {
      await beat(31 + 5 * k, 609 + 5 * k, true, 609 + 5 * (k - 1));
      await beat(33.5 + 5 * k, 100 + 5 * k, true, 100 + 5 * (k - 1));
    }
    expect(await spans()).toEqual([
      [0, 7],
      [100, 110],
      [609, 619],
    ]);
    expect((await beat(43.5, 110, true)).watched_s).toBe(27);
    // The tab seeks back to 2 (the 1.5 s it played at 110 count) and plays 2 to 7 again: counted once.
    expect((await beat(45, 2, true)).watched_s).toBe(28);
    expect((await beat(50, 7, true, 2)).watched_s).toBe(28);
    // A tab that slept a minute counts at most one beat's worth (6 s), from where it was.
    expect((await beat(110, 700, true, 7)).watched_s).toBe(34);
    // A beat with an earlier clock than the last counts nothing and leaves the last beat where it was.
    expect((await beat(100, 720, true, 700)).watched_s).toBe(34);
    // A stretch claimed faster than twice the wall clock (the player's fastest speed) is a seek.
    expect((await beat(112, 740, true, 720)).watched_s).toBe(36);
    expect(await spans()).toEqual([
      [0, 13],
      [100, 111],
      [609, 619],
      [720, 722],
    ]);

    const record = expectOk<Attendance>(await get(classId, alice));
    expect(record.rows).toEqual([
      expect.objectContaining({ session_id: session.id, user_id: alice.id, joins: [], replay_watch_s: 36 }),
    ]);
  });
});

describe('replay watch time under concurrency', () => {
  it('beats of many tabs arriving at once credit the elapsed time once', async () => {
    const classId = await newClass();
    const session = await insertSession(app, classId);
    const t0 = Date.parse('2026-03-05T10:00:00Z');
    const beat = (s: number) =>
      creditBeat(app.db, session.id, bora.id, { position_s: s, playing: true }, new Date(t0 + s * 1000));
    await beat(0);
    await Promise.all(Array.from({ length: 10 }, () => beat(5)));
    expect((await beat(5)).watched_s).toBe(5);
  });

  it('credits no more than the replay is long, however long the beats go on (it credited 42 s of 24)', async () => {
    const classId = await newClass();
    const session = await insertSession(app, classId, { replayDurationMs: 24_000 });
    const t0 = Date.parse('2026-03-06T10:00:00Z');
    let state = { watched_s: 0, position_s: 0 };
    for (let s = 0; s <= 40; s += 5) {
      const at = new Date(t0 + s * 1000);
      const beat = { position_s: s % 24, playing: true };
      state = await creditBeat(app.db, session.id, bora.id, beat, at, 24_000);
    }
    expect(state.watched_s).toBe(24);
    // Ten more minutes of beats claiming the end: still the replay's 24 seconds.
    for (let s = 45; s <= 645; s += 5) {
      const beat = { position_s: 24, playing: true, from_s: 19 };
      state = await creditBeat(app.db, session.id, bora.id, beat, new Date(t0 + s * 1000), 24_000);
    }
    expect(state.watched_s).toBe(24);
  });
});

describe('the 출석부', () => {
  it('lists every enrolled student per session: 출석, 지각 after 10 minutes, 결석 when never joined', async () => {
    const classId = await newClass();
    const late = await createUser(app, { nickname: '다학생' });
    const absent = await createUser(app, { nickname: '라학생' });
    await insertEnrolment(app, classId, late.id);
    await insertEnrolment(app, classId, absent.id);
    const start = new Date('2026-03-05T05:00:00Z');
    await app.db.update(enrolments).set({ createdAt: start }).where(eq(enrolments.classId, classId));
    const at = (s: number) => new Date(start.getTime() + s * 1000);
    const session = await insertSession(app, classId, { startedAt: start, endedAt: at(3600), title: '2강' });
    await app.db.insert(attendance).values([
      { sessionId: session.id, userId: alice.id, joinedAt: at(600), leftAt: at(3600) },
      { sessionId: session.id, userId: bora.id, joinedAt: at(0), leftAt: at(3600) },
      { sessionId: session.id, userId: late.id, joinedAt: at(601), leftAt: at(3600) },
    ]);
    const record = expectOk<Attendance>(await get(classId, teacher));
    expect(record.class_name).toBe('노션으로 하루 정리');
    expect(record.rows.map((row) => [row.nickname, row.status, row.joins.length])).toEqual([
      ['가학생', 'present', 1],
      ['나학생', 'present', 1],
      ['다학생', 'late', 1],
      ['라학생', 'absent', 0],
    ]);
    // A student sees their own 결석 too.
    const own = expectOk<Attendance>(await get(classId, absent));
    expect(own.rows.map((row) => [row.user_id, row.status])).toEqual([[absent.id, 'absent']]);
    const csv = (await get(classId, teacher, '?format=csv')).rawPayload.subarray(3).toString('utf8');
    expect(csv.split('\r\n')[4]).toBe('2강,2026-03-05 14:00:00,2026-03-05 15:00:00,라학생,결석,,,0,0.0,0.0,');
  });

  it('does not list a student who enrolled after the session ended', async () => {
    const classId = await newClass();
    await insertSession(app, classId, {
      startedAt: new Date('2026-03-05T05:00:00Z'),
      endedAt: new Date('2026-03-05T06:00:00Z'),
    });
    // newClass enrolled both students now, long after that session.
    expect(expectOk<Attendance>(await get(classId, teacher)).rows).toEqual([]);
  });
});

describe('attendance route', () => {
  let classId: number;
  let sessionId: number;
  beforeAll(async () => {
    classId = await newClass();
    const start = new Date('2026-03-04T05:00:00Z');
    const session = await insertSession(app, classId, {
      startedAt: start,
      endedAt: new Date(start.getTime() + 3600_000),
      title: '1강',
      replayDurationMs: 600_000,
    });
    sessionId = session.id;
    // 나학생 played the replay's first minute and a half.
    await app.db.insert(replayWatches).values({
      sessionId,
      userId: alice.id,
      watched: [[0, 90]],
      positionS: 90,
      lastBeatAt: new Date('2026-03-05T00:00:00Z'),
    });
    await app.db.insert(attendance).values([
      { sessionId, userId: alice.id, joinedAt: start, leftAt: new Date(start.getTime() + 90_000) },
      { sessionId, userId: bora.id, joinedAt: new Date(start.getTime() + 60_000), leftAt: null },
      // The teacher's own presence is never a row of the record.
      { sessionId, userId: teacher.id, joinedAt: start, leftAt: null },
    ]);
    await creditBeat(app.db, sessionId, teacher.id, { position_s: 0, playing: true });
  });

  it('gives the teacher every student’s rows and a student only their own', async () => {
    const all = expectOk<Attendance>(await get(classId, teacher));
    expect(all.rows.map((row) => row.nickname)).toEqual(['가학생', '나학생']);
    expect(all.rows.map((row) => row.live_watch_s)).toEqual([3540, 90]);
    const own = expectOk<Attendance>(await get(classId, alice));
    expect(own.sessions.map((s) => s.title)).toEqual(['1강']);
    expect(own.rows.map((row) => row.user_id)).toEqual([alice.id]);
  });

  it('keeps a hidden replay’s title from students, not from the teacher', async () => {
    await app.db.update(liveSessions).set({ hidden: true }).where(eq(liveSessions.id, sessionId));
    try {
      expect(expectOk<Attendance>(await get(classId, alice)).sessions.map((s) => s.title)).toEqual([null]);
      expect(expectOk<Attendance>(await get(classId, teacher)).sessions.map((s) => s.title)).toEqual(['1강']);
    } finally {
      await app.db.update(liveSessions).set({ hidden: false }).where(eq(liveSessions.id, sessionId));
    }
  });

  it('answers 401 without a token or for a withdrawn student, 418 to a stranger, 404 for no class', async () => {
    expectError(await get(classId), 401);
    expectError(await get(classId, stranger), 418);
    expectError(await get(999_999, teacher), 404);
    expectError(await get(classId, stranger, '?format=csv'), 418);
    expectError(await get(classId, teacher, '?format=xls'), 400);
    const leaver = await createUser(app, { nickname: '떠난학생' });
    await insertEnrolment(app, classId, leaver.id);
    await app.db
      .insert(attendance)
      .values({ sessionId, userId: leaver.id, joinedAt: new Date('2026-03-04T05:00:00Z') });
    expectOk(await get(classId, leaver));
    await withdraw(app.db, leaver.id);
    expectError(await get(classId, leaver), 401);
    // The teacher still sees the withdrawn student's row, without the name.
    const all = expectOk<Attendance>(await get(classId, teacher));
    expect(all.rows.map((row) => row.nickname)).toEqual(['가학생', '나학생', null]);
  });

  it('exports CSV: UTF-8 with a BOM, the Korean header, Korean time, minutes, the replay progress', async () => {
    const response = await get(classId, teacher, '?format=csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Seoul' }).format(new Date());
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="attendance-${classId}.csv"; filename*=UTF-8''` +
        encodeURIComponent(`노션으로 하루 정리_출석부_${today}.csv`),
    );
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe(ATTENDANCE_CSV_HEADER.join(','));
    expect(lines[0]).toBe(
      '세션,세션 시작,세션 종료,학생,출석,첫 입장,마지막 퇴장,입장 횟수,실시간 시청(분),다시보기 시청(분),다시보기 진도율(%)',
    );
    expect(lines[1]).toBe(
      '1강,2026-03-04 14:00:00,2026-03-04 15:00:00,가학생,출석,2026-03-04 14:01:00,2026-03-04 15:00:00,1,59.0,0.0,0',
    );
    expect(lines[2]).toBe(
      '1강,2026-03-04 14:00:00,2026-03-04 15:00:00,나학생,출석,2026-03-04 14:00:00,2026-03-04 14:01:30,1,1.5,1.5,15',
    );
    const own = await get(classId, alice, '?format=csv');
    expect(own.rawPayload.subarray(3).toString('utf8').split('\r\n').filter(Boolean)).toHaveLength(2);
  });
});
