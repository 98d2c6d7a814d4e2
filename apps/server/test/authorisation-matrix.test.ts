import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { schedules, users } from '../src/db/schema.ts';
import { classDto, insertClass, insertEnrolment } from './classes.ts';
import { expectError } from './expect-envelope.ts';
import { bearer, buildTestApp, createAccount, createUser, type TestUser } from './helper.ts';
import { jsonPart, multipart } from './multipart.ts';

type Caller = 'anonymous' | 'stranger' | 'student' | 'teacher';
type Status = 200 | 401 | 418;
type Fixture = { classId: number; scheduleId: number };
type Case = {
  name: string;
  request: (f: Fixture) => InjectOptions;
  expected: [anonymous: Status, stranger: Status, student: Status, teacher: Status];
};

const dto = (name: string, value: unknown) => {
  const { payload, headers } = multipart([jsonPart(name, value)]);
  return { payload, headers };
};

// Every bearer route of the classes domain, with the status each caller gets (api.md section 3).
const CASES: Case[] = [
  {
    name: 'GET target=enrolled',
    request: () => ({ url: '/api/classes?target=enrolled' }),
    expected: [401, 200, 200, 200],
  },
  {
    name: 'GET target=created',
    request: () => ({ url: '/api/classes?target=created' }),
    expected: [401, 200, 200, 200],
  },
  {
    name: 'POST /api/classes',
    request: () => ({ method: 'POST', url: '/api/classes', ...dto('classroomCreateDto', classDto()) }),
    expected: [401, 200, 200, 200],
  },
  {
    name: 'PATCH class',
    request: (f) => ({
      method: 'PATCH',
      url: `/api/classes/${f.classId}`,
      ...dto('classroomUpdateDto', { name: '바뀐 제목' }),
    }),
    expected: [401, 418, 418, 200],
  },
  {
    name: 'DELETE class',
    request: (f) => ({ method: 'DELETE', url: `/api/classes/${f.classId}/delete` }),
    expected: [401, 418, 418, 200],
  },
  {
    name: 'GET role',
    request: (f) => ({ url: `/api/classes/${f.classId}/role` }),
    expected: [401, 200, 200, 200],
  },
  {
    name: 'PATCH isActive',
    request: (f) => ({
      method: 'PATCH',
      url: `/api/classes/${f.classId}/isActive`,
      payload: { active: true },
    }),
    expected: [401, 418, 418, 200],
  },
  {
    name: 'GET live-ticket',
    request: (f) => ({ url: `/api/classes/${f.classId}/live-ticket` }),
    expected: [401, 418, 200, 200],
  },
  {
    name: 'GET dashboard',
    request: (f) => ({ url: `/api/classes/${f.classId}/dashboard` }),
    expected: [401, 418, 200, 200],
  },
  {
    name: 'GET dashboard/students',
    request: (f) => ({ url: `/api/classes/${f.classId}/dashboard/students` }),
    expected: [401, 418, 418, 200],
  },
  {
    name: 'POST enroll',
    request: (f) => ({ method: 'POST', url: `/api/classes/${f.classId}/enroll` }),
    expected: [401, 200, 418, 418],
  },
  {
    name: 'GET schedule',
    request: (f) => ({ url: `/api/classes/${f.classId}/schedule` }),
    expected: [401, 418, 200, 200],
  },
  {
    name: 'POST schedule',
    request: (f) => ({
      method: 'POST',
      url: `/api/classes/${f.classId}/schedule`,
      payload: { content: '특강', date: '2026-05-01', start_time: '10:00:00', end_time: '11:00:00' },
    }),
    expected: [401, 418, 418, 200],
  },
  {
    name: 'DELETE schedule',
    request: (f) => ({
      method: 'DELETE',
      url: `/api/classes/${f.classId}/schedule`,
      payload: { schedule_id: f.scheduleId },
    }),
    expected: [401, 418, 418, 200],
  },
];
const CALLERS: Caller[] = ['anonymous', 'stranger', 'student', 'teacher'];

let app: FastifyInstance;
let people: Record<Exclude<Caller, 'anonymous'>, TestUser>;
beforeAll(async () => {
  app = await buildTestApp();
  people = {
    stranger: await createUser(app),
    student: await createUser(app),
    teacher: await createUser(app),
  };
});
afterAll(() => app.close());

/** A fresh class (so a delete or enrolment in one cell never affects another) with a student and a schedule. */
async function fixture(): Promise<Fixture> {
  const classId = await insertClass(app, people.teacher.id);
  await insertEnrolment(app, classId, people.student.id);
  const [row] = await app.db
    .insert(schedules)
    .values({ classId, content: '1강', date: '2026-05-01', startTime: '09:00:00', endTime: '10:00:00' })
    .returning({ id: schedules.id });
  return { classId, scheduleId: row?.id ?? 0 };
}

describe.each(CASES)('$name', ({ request, expected }) => {
  it.each(CALLERS.map((caller, i) => [caller, expected[i] as Status] as const))(
    '%s → %i',
    async (caller, status) => {
      const options = request(await fixture());
      const headers = {
        ...(options.headers as Record<string, string>),
        ...(caller === 'anonymous' ? {} : bearer(people[caller])),
      };
      const response = await app.inject({ ...options, headers });
      if (status === 200) expect(response.statusCode, response.body).toBe(200);
      else expectError(response, status);
    },
  );

  it('answers 401 to a garbage token, a refresh token, an unregistered account and a withdrawn user', async () => {
    const f = await fixture();
    const account = await createAccount(app);
    const withdrawn = await createUser(app);
    await app.db
      .update(users)
      .set({ deletedAt: sql`now()` })
      .where(eq(users.id, withdrawn.id));
    const refresh = await app.tokens.signRefresh({ sub: people.teacher.id, jti: 'j', family: 'f' });
    const tokens = ['garbage', refresh, account.token, withdrawn.token];
    const options = request(f);
    for (const token of tokens) {
      const response = await app.inject({
        ...options,
        headers: { ...(options.headers as Record<string, string>), authorization: `Bearer ${token}` },
      });
      // Lists of an unregistered account are simply empty; every other route needs a registered user.
      if (
        options.url?.toString().startsWith('/api/classes?') &&
        (token === account.token || token === withdrawn.token)
      )
        continue;
      expectError(response, 401);
    }
  });
});
