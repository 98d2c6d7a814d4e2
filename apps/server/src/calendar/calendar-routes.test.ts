import ical, { type CalendarResponse, type VEvent } from 'node-ical';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarUrl } from '@sea/contract/calendar';
import { ROUTES, toPath } from '@sea/contract/paths';
import type { Schedule } from '@sea/contract/schedules';
import { appWithClass, insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, createUser, type TestUser } from '../../test/helper.ts';
import { calendarFeeds } from '../db/schema.ts';
import { withdraw } from '../users/withdraw.ts';

// The feed is read as a calendar app in New York would: the parser runs in a process on New York time.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

const { app, teacher, student, classId } = await appWithClass({ fields: { name: '파이썬 기초' } });
const otherTeacher = await createUser(app);
const studied = await insertClass(app, otherTeacher.id, { name: '자료구조' });
await insertEnrolment(app, studied, student.id);
const notMine = await insertClass(app, otherTeacher.id, { name: '남의 강의' });
const stranger = await createUser(app);

async function addSchedule(id: number, user: TestUser, date: string, start: string, end: string) {
  const response = await app.inject({
    method: 'POST',
    url: toPath(ROUTES.schedule, { classId: id }),
    payload: { content: `${date} 강의`, date, start_time: start, end_time: end },
    headers: bearer(user),
  });
  return expectOk<Schedule>(response);
}

const winter = await addSchedule(classId, teacher, '2026-03-04', '19:00:00', '21:30:00');
const summer = await addSchedule(studied, otherTeacher, '2026-07-01', '08:00:00', '09:00:00');
await addSchedule(notMine, otherTeacher, '2026-07-02', '10:00:00', '11:00:00');

const feedUrl = async (user: TestUser, method: 'GET' | 'POST' = 'GET') =>
  expectOk<CalendarUrl>(
    await app.inject({
      method,
      url: method === 'GET' ? ROUTES.calendarUrl : ROUTES.calendarUrlReset,
      headers: bearer(user),
    }),
  );
/** The feed at `url`, fetched without any login, as the calendar app does. */
const fetchFeed = (url: string) => app.inject({ url: new URL(url).pathname });
async function events(url: string): Promise<{ calendar: CalendarResponse; events: VEvent[] }> {
  const response = await fetchFeed(url);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
  const calendar = ical.sync.parseICS(response.body);
  const found = Object.values(calendar).filter((item): item is VEvent => item?.type === 'VEVENT');
  return { calendar, events: found.sort((a, b) => a.start.getTime() - b.start.getTime()) };
}

describe('the calendar feed', () => {
  it('holds every class the user studies, with the fields Google and Apple require, right in New York', async () => {
    const { url, webcal_url } = await feedUrl(student);
    expect((await feedUrl(student)).url).toBe(url);
    expect(webcal_url).toBe(url.replace(/^http:/, 'webcal:'));
    const { calendar, events: found } = await events(url);
    // VCALENDAR: VERSION and PRODID (RFC 5545 3.7, required by both).
    const head = Object.values(calendar).find((item) => item?.type === 'VCALENDAR');
    expect(head).toMatchObject({ version: '2.0', prodid: expect.stringMatching(/^-\/\/Sea Academy\/\//) });
    expect(found.map((event) => event.uid)).toEqual([
      `schedule-${winter.id}@localhost`,
      `schedule-${summer.id}@localhost`,
    ]);
    for (const event of found) {
      expect(event.dtstamp).toBeInstanceOf(Date);
      expect(event.start).toBeInstanceOf(Date);
      expect(event.end).toBeInstanceOf(Date);
      expect(typeof event.summary).toBe('string');
    }
    const [march, july] = found;
    // 19:00 in Seoul on 4 March is 10:00 UTC, 05:00 in New York (EST); 08:00 on 1 July is 30 June, 19:00 EDT.
    expect(march?.start.toISOString()).toBe('2026-03-04T10:00:00.000Z');
    expect(march?.end?.toISOString()).toBe('2026-03-04T12:30:00.000Z');
    expect([march?.start.getDate(), march?.start.getHours()]).toEqual([4, 5]);
    expect(july?.start.toISOString()).toBe('2026-06-30T23:00:00.000Z');
    expect([july?.start.getDate(), july?.start.getHours()]).toEqual([30, 19]);
    expect(march?.start.tz).toBe('Asia/Seoul');
    expect(march?.summary).toBe('[파이썬 기초] 2026-03-04 강의');
    expect(march?.url).toEqual(
      expect.objectContaining({ val: `http://localhost:5000/lecture/info/${classId}` }),
    );
  });

  it('follows a changed schedule and a class left, at the next fetch', async () => {
    const { url } = await feedUrl(student);
    const added = await addSchedule(classId, teacher, '2026-03-11', '19:00:00', '20:00:00');
    expect((await events(url)).events.map((event) => event.uid)).toContain(`schedule-${added.id}@localhost`);
    await app.inject({
      method: 'DELETE',
      url: toPath(ROUTES.schedule, { classId }),
      payload: { schedule_id: added.id },
      headers: bearer(teacher),
    });
    expect((await events(url)).events).toHaveLength(2);
    expectOk(
      await app.inject({
        method: 'DELETE',
        url: toPath(ROUTES.enroll, { classId: studied }),
        headers: bearer(student),
      }),
    );
    expect((await events(url)).events.map((event) => event.uid)).toEqual([`schedule-${winter.id}@localhost`]);
    // The teacher's own feed holds the class taught.
    const mine = await events((await feedUrl(teacher)).url);
    expect(mine.events.map((event) => event.uid)).toEqual([`schedule-${winter.id}@localhost`]);
  });

  it('answers 404 to a stranger’s token, a forged one and a reset one; the new URL works', async () => {
    const { url } = await feedUrl(stranger);
    const token = new URL(url).pathname.slice('/api/calendar/'.length, -'.ics'.length);
    const path = (t: string) => toPath(ROUTES.calendarFeed, { token: t });
    for (const made of [
      'x',
      'a'.repeat(67),
      `${token.slice(0, 24)}${'A'.repeat(43)}`,
      `${'A'.repeat(24)}${token.slice(24)}`,
    ]) {
      const body = expectError(await app.inject({ url: path(made) }), 404);
      expect(body.message_kor).toBe('캘린더 주소를 찾을 수 없어요.');
    }
    // The database keeps the selector only: the URL's secret part is not in it.
    const [row] = await app.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, stranger.id));
    expect(token.startsWith(row?.selector ?? '-')).toBe(true);
    expect(JSON.stringify(row)).not.toContain(token.slice(24));
    const renewed = await feedUrl(stranger, 'POST');
    expect(renewed.url).not.toBe(url);
    expectError(await fetchFeed(url), 404);
    expect((await fetchFeed(renewed.url)).statusCode).toBe(200);
    expect((await feedUrl(stranger)).url).toBe(renewed.url);
    // A withdrawn user's feed ends too.
    await withdraw(app.db, stranger.id);
    expectError(await fetchFeed(renewed.url), 404);
    expectError(await app.inject({ url: ROUTES.calendarUrl }), 401);
    expectError(await app.inject({ method: 'POST', url: ROUTES.calendarUrlReset }), 401);
  });
});

describe('a class’s schedule file', () => {
  const get = (user?: TestUser, id = classId) =>
    app.inject({ url: toPath(ROUTES.scheduleIcs, { classId: id }), headers: user ? bearer(user) : {} });

  it('gives members the class’s entries as an attachment; refuses others', async () => {
    const response = await get(teacher);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="class-${classId}.ics"`);
    const parsed = Object.values(ical.sync.parseICS(response.body)).filter((item) => item?.type === 'VEVENT');
    expect(parsed.map((event) => (event as VEvent).uid)).toEqual([`schedule-${winter.id}@localhost`]);
    expect(response.body).toContain('X-WR-CALNAME:파이썬 기초 일정');
    expectError(await get(), 401);
    expectError(await get(await createUser(app)), 418);
    expectError(await get(teacher, 999_999), 404);
  });
});
