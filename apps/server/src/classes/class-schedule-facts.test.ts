import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassItem } from '@sea/contract/classes';
import { UPCOMING_SCHEDULE_SIZE, type Schedule } from '@sea/contract/schedules';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';
import { liveSessions, schedules } from '../db/schema.ts';

// Runs on PostgreSQL and on PGlite (projects server and server-pglite): the same answers on both.
// Dates are Asia/Seoul calendar days relative to the real clock; entries of "today" span the whole day
// (00:00:00-23:59:59) so the test does not depend on the hour it runs at.
let app: FastifyInstance;
let teacher: TestUser;
let student: TestUser;
const ids = { today: 0, tomorrow: 0, past: 0, none: 0, replays: 0 };

const DAY_MS = 24 * 60 * 60 * 1000;
const SEOUL_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' });
/** The Asia/Seoul calendar date `days` from today, `YYYY-MM-DD`. */
const seoulDate = (days: number) => SEOUL_DATE.format(new Date(Date.now() + days * DAY_MS));
/** A Seoul wall-clock date and time as the API's ISO-8601 UTC text. */
const seoulInstant = (date: string, time: string) =>
  new Date(`${date}T${time}+09:00`).toISOString().replace('.000Z', 'Z');

async function addEntry(classId: number, content: string, date: string, start: string, end: string) {
  await app.db.insert(schedules).values({ classId, content, date, startTime: start, endTime: end });
}

async function addSession(classId: number, state: string, hidden = false) {
  await app.db.insert(liveSessions).values({
    classId,
    mediaKey: randomUUID(),
    nodeId: 'node-1',
    startedAt: new Date(Date.now() - DAY_MS),
    endedAt: new Date(Date.now() - DAY_MS + 3_600_000),
    recordingState: state,
    hidden,
  });
}

beforeAll(async () => {
  app = await buildTestApp();
  teacher = await createUser(app, { nickname: `일정선생${randomUUID().slice(0, 4)}` });
  student = await createUser(app);
  for (const key of Object.keys(ids) as (keyof typeof ids)[]) {
    ids[key] = await insertClass(app, teacher.id, { name: `일정 ${key}` });
  }
  await insertEnrolment(app, ids.today, student.id);
  // today: an entry that ended at 00:00:01 today, the whole-day one, and two later ones.
  await addEntry(ids.today, '어제 수업', seoulDate(-1), '20:00:00', '21:00:00');
  await addEntry(ids.today, '지난 새벽', seoulDate(0), '00:00:00', '00:00:01');
  await addEntry(ids.today, '모레 수업', seoulDate(2), '09:00:00', '10:00:00');
  await addEntry(ids.today, '오늘 종일', seoulDate(0), '00:00:00', '23:59:59');
  await addEntry(ids.today, '내일 수업', seoulDate(1), '20:00:00', '21:30:00');
  await addEntry(ids.tomorrow, '내일 저녁', seoulDate(1), '20:00:00', '21:00:00');
  await addEntry(ids.tomorrow, '내일 아침', seoulDate(1), '08:30:00', '09:00:00');
  await addEntry(ids.past, '지난주', seoulDate(-7), '20:00:00', '21:00:00');
  await addSession(ids.replays, 'ready');
  await addSession(ids.replays, 'ready');
  await addSession(ids.replays, 'ready', true);
  await addSession(ids.replays, 'processing');
  await addSession(ids.replays, 'failed');
  await addSession(ids.past, 'ready', true);
});
afterAll(() => app.close());

const detail = async (classId: number) => expectOk<ClassItem>(await app.inject(`/api/classes/${classId}`));

describe('the class item: next_session_at', () => {
  it('is the start of the earliest entry not yet ended, Seoul time as UTC', async () => {
    expect((await detail(ids.today)).next_session_at).toBe(seoulInstant(seoulDate(0), '00:00:00'));
  });

  it('is a later day when nothing is left today, the earlier entry of that day', async () => {
    expect((await detail(ids.tomorrow)).next_session_at).toBe(seoulInstant(seoulDate(1), '08:30:00'));
  });

  it('is null with only past entries or none', async () => {
    expect((await detail(ids.past)).next_session_at).toBeNull();
    expect((await detail(ids.none)).next_session_at).toBeNull();
  });

  it('is the same in every list that carries class items', async () => {
    const listed = expectOk<ClassItem[]>(await app.inject('/api/classes'));
    const byId = new Map(listed.map((item) => [item.id, item]));
    expect(byId.get(ids.today)?.next_session_at).toBe(seoulInstant(seoulDate(0), '00:00:00'));
    expect(byId.get(ids.tomorrow)?.next_session_at).toBe(seoulInstant(seoulDate(1), '08:30:00'));
    expect(byId.get(ids.none)?.next_session_at).toBeNull();
    const instructor = expectOk<{ classes: ClassItem[] }>(await app.inject(`/api/instructors/${teacher.id}`));
    expect(instructor.classes.find((item) => item.id === ids.tomorrow)?.next_session_at).toBe(
      seoulInstant(seoulDate(1), '08:30:00'),
    );
    const dashboard = expectOk<ClassItem>(
      await app.inject({ url: `/api/classes/${ids.today}/dashboard`, headers: bearer(student) }),
    );
    expect(dashboard.next_session_at).toBe(seoulInstant(seoulDate(0), '00:00:00'));
  });
});

describe('the class item: replay_count', () => {
  it('counts ready replays that are not hidden, nothing else', async () => {
    expect((await detail(ids.replays)).replay_count).toBe(2);
    expect((await detail(ids.past)).replay_count).toBe(0);
    expect((await detail(ids.none)).replay_count).toBe(0);
  });

  it('is in list items too', async () => {
    const listed = expectOk<ClassItem[]>(await app.inject('/api/classes'));
    expect(listed.find((item) => item.id === ids.replays)?.replay_count).toBe(2);
  });

  it('comes with search results, ranked page first (both facts)', async () => {
    const found = expectOk<ClassItem[]>(
      await app.inject(`/api/classes?q=${encodeURIComponent('일정 replays')}`),
    );
    expect(found.map((item) => [item.id, item.replay_count, item.next_session_at])).toEqual([
      [ids.replays, 2, null],
    ]);
    const ranked = expectOk<ClassItem[]>(await app.inject(`/api/classes?q=${encodeURIComponent('일정')}`));
    expect(ranked.find((item) => item.id === ids.today)?.next_session_at).toBe(
      seoulInstant(seoulDate(0), '00:00:00'),
    );
    expect(ranked.find((item) => item.id === ids.replays)?.replay_count).toBe(2);
  });
});

describe('GET /api/classes/{classId}/schedule/upcoming', () => {
  const upcoming = (classId: number) => app.inject(`/api/classes/${classId}/schedule/upcoming`);

  it('answers anyone the entries not yet ended, soonest first', async () => {
    const entries = expectOk<Schedule[]>(await upcoming(ids.today));
    expect(entries.map((entry) => entry.content)).toEqual(['오늘 종일', '내일 수업', '모레 수업']);
    expect(entries[1]).toMatchObject({ date: seoulDate(1), start_time: '20:00:00', end_time: '21:30:00' });
  });

  it('answers an empty list when nothing is ahead', async () => {
    expect(expectOk<Schedule[]>(await upcoming(ids.past))).toEqual([]);
    expect(expectOk<Schedule[]>(await upcoming(ids.none))).toEqual([]);
  });

  it(`answers at most ${UPCOMING_SCHEDULE_SIZE} entries`, async () => {
    const busy = await insertClass(app, teacher.id);
    for (let day = 1; day <= UPCOMING_SCHEDULE_SIZE + 2; day += 1) {
      await addEntry(busy, `${day}일 뒤`, seoulDate(day), '19:00:00', '20:00:00');
    }
    const entries = expectOk<Schedule[]>(await upcoming(busy));
    expect(entries).toHaveLength(UPCOMING_SCHEDULE_SIZE);
    expect(entries[0]?.content).toBe('1일 뒤');
  });

  it('answers 404 for an unknown class and 400 for a bad id', async () => {
    expectError(await upcoming(999_999), 404);
    expectError(await app.inject('/api/classes/abc/schedule/upcoming'), 400);
  });
});
