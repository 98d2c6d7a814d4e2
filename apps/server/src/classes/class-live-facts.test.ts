import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassItem } from '@sea/contract/classes';
import { insertClass } from '../../test/classes.ts';
import { expectOk } from '../../test/expect-envelope.ts';
import { buildTestApp, createUser, type TestUser } from '../../test/helper.ts';
import { attendance, liveSessions } from '../db/schema.ts';

// Runs on PostgreSQL and on PGlite (projects server and server-pglite): the same answers on both.
let app: FastifyInstance;
let teacher: TestUser;
const students: TestUser[] = [];
const ids = { live: 0, empty: 0, ended: 0, waiting: 0 };
const STARTED = new Date('2026-12-02T05:05:07.250Z');
const MINUTE_MS = 60_000;

async function addSession(classId: number, startedAt: Date, endedAt: Date | null = null): Promise<number> {
  const [row] = await app.db
    .insert(liveSessions)
    .values({ classId, mediaKey: randomUUID(), nodeId: 'node-1', startedAt, endedAt })
    .returning({ id: liveSessions.id });
  if (row === undefined) throw new Error('insert failed');
  return row.id;
}

async function attend(sessionId: number, user: TestUser, leftAt: Date | null = null) {
  await app.db
    .insert(attendance)
    .values({ sessionId, userId: user.id, joinedAt: new Date(STARTED.getTime() + MINUTE_MS), leftAt });
}

beforeAll(async () => {
  app = await buildTestApp();
  teacher = await createUser(app, { nickname: `라이브선생${randomUUID().slice(0, 4)}` });
  for (let index = 0; index < 4; index += 1) students.push(await createUser(app));
  ids.live = await insertClass(app, teacher.id, { name: '라이브 중', isActive: true });
  ids.empty = await insertClass(app, teacher.id, { name: '라이브 빈방', isActive: true });
  ids.ended = await insertClass(app, teacher.id, { name: '라이브 끝남' });
  ids.waiting = await insertClass(app, teacher.id, { name: '라이브 대기' });
  const [first, second, third, fourth] = students as [TestUser, TestUser, TestUser, TestUser];
  // live: an earlier, ended session with its own students, and the open one: two in, one came back, one left.
  const earlier = await addSession(ids.live, new Date(STARTED.getTime() - 60 * MINUTE_MS), STARTED);
  await attend(earlier, fourth);
  const open = await addSession(ids.live, STARTED);
  await attend(open, first);
  await attend(open, second, new Date(STARTED.getTime() + 2 * MINUTE_MS));
  await attend(open, second);
  await attend(open, third, new Date(STARTED.getTime() + 3 * MINUTE_MS));
  await addSession(ids.empty, new Date(STARTED.getTime() + 10 * MINUTE_MS));
  const ended = await addSession(ids.ended, STARTED, new Date(STARTED.getTime() + 30 * MINUTE_MS));
  await attend(ended, first, new Date(STARTED.getTime() + 30 * MINUTE_MS));
  // waiting: its node died, the session waits for its teacher and the class is not live meanwhile.
  const waiting = await addSession(ids.waiting, STARTED);
  await attend(waiting, first);
});
afterAll(() => app.close());

const detail = async (classId: number) => expectOk<ClassItem>(await app.inject(`/api/classes/${classId}`));

describe('the class item: live_started_at and live_viewer_count', () => {
  it('is the open session start, to the second in UTC, and the students in its room now', async () => {
    const item = await detail(ids.live);
    expect(item.live_started_at).toBe('2026-12-02T05:05:07Z');
    expect(item.live_viewer_count).toBe(2);
  });

  it('is a start and zero viewers for a live room nobody has entered yet', async () => {
    const item = await detail(ids.empty);
    expect(item.live_started_at).toBe('2026-12-02T05:15:07Z');
    expect(item.live_viewer_count).toBe(0);
  });

  it('is null for a class that is not live, even with an open session waiting for its teacher', async () => {
    for (const classId of [ids.ended, ids.waiting]) {
      expect(await detail(classId)).toMatchObject({ live_started_at: null, live_viewer_count: null });
    }
  });

  it('is the same in the live list', async () => {
    const listed = expectOk<ClassItem[]>(await app.inject('/api/classes?target=live'));
    const byId = new Map(listed.map((item) => [item.id, item]));
    expect(byId.get(ids.live)).toMatchObject({
      live_started_at: '2026-12-02T05:05:07Z',
      live_viewer_count: 2,
    });
    expect(byId.get(ids.empty)).toMatchObject({ live_viewer_count: 0 });
    expect(byId.has(ids.ended)).toBe(false);
  });
});
