import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ACCESS_TOKEN_TTL_S } from '@sea/contract/auth';
import { createTokens } from '../src/plugins/tokens.ts';
import { classes, reviews, schedules, users } from '../src/db/schema.ts';
import { classDto, insertClass, insertEnrolment } from './classes.ts';
import { expectError } from './expect-envelope.ts';
import { buildTestApp, createAccount, createUser, type TestUser } from './helper.ts';
import { jsonPart, multipart } from './multipart.ts';

type Person = 'stranger' | 'student' | 'teacher';
type Caller = 'anonymous' | Person;
type Status = 200 | 401 | 404 | 409 | 418;
type Fixture = {
  classId: number;
  scheduleId: number;
  reviewId: number;
  people: Record<Person, TestUser>;
};
type Case = {
  name: string;
  request: (f: Fixture) => InjectOptions;
  expected: [anonymous: Status, stranger: Status, student: Status, teacher: Status];
  /**
   * A valid token of an account that never signed up, and of a withdrawn user (neither a member of the
   * class): 401 "sign up first" unless the route says otherwise.
   */
  unregistered?: Status;
};

const dto = (name: string, value: unknown) => {
  const { payload, headers } = multipart([jsonPart(name, value)]);
  return { payload, headers };
};
const nickname = () => `가입${randomBytes(3).toString('hex')}`;

// Every bearer route (the original API spec sections 2-4), with the status each caller gets.
const CASES: Case[] = [
  {
    name: 'GET target=enrolled',
    request: () => ({ url: '/api/classes?target=enrolled' }),
    expected: [401, 200, 200, 200],
    // The caller's own lists are simply empty.
    unregistered: 200,
  },
  {
    name: 'GET target=created',
    request: () => ({ url: '/api/classes?target=created' }),
    expected: [401, 200, 200, 200],
    unregistered: 200,
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
    name: 'GET materials',
    request: (f) => ({ url: `/api/classes/${f.classId}/materials` }),
    expected: [401, 418, 200, 200],
  },
  {
    name: 'GET board',
    request: (f) => ({ url: `/api/classes/${f.classId}/board` }),
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
    name: 'DELETE enroll',
    request: (f) => ({ method: 'DELETE', url: `/api/classes/${f.classId}/enroll` }),
    expected: [401, 418, 200, 418],
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
  {
    name: 'GET sessions',
    request: (f) => ({ url: `/api/classes/${f.classId}/sessions` }),
    expected: [401, 418, 200, 200],
  },
  {
    // Members learn the session does not exist; a stranger learns nothing (418 first).
    name: 'GET an unknown session',
    request: (f) => ({ url: `/api/classes/${f.classId}/sessions/999999` }),
    expected: [401, 418, 404, 404],
  },
  {
    name: 'PATCH an unknown session',
    request: (f) => ({
      method: 'PATCH',
      url: `/api/classes/${f.classId}/sessions/999999`,
      payload: { hidden: true },
    }),
    expected: [401, 418, 418, 404],
  },
  {
    name: 'DELETE an unknown session',
    request: (f) => ({ method: 'DELETE', url: `/api/classes/${f.classId}/sessions/999999` }),
    expected: [401, 418, 418, 404],
  },
  {
    name: 'GET an unknown session’s chat',
    request: (f) => ({ url: `/api/classes/${f.classId}/sessions/999999/chat` }),
    expected: [401, 418, 404, 404],
  },
  {
    name: 'POST watch on an unknown session',
    request: (f) => ({
      method: 'POST',
      url: `/api/classes/${f.classId}/sessions/999999/watch`,
      payload: { position_s: 0, playing: true },
    }),
    expected: [401, 418, 404, 404],
  },
  {
    name: 'GET attendance',
    request: (f) => ({ url: `/api/classes/${f.classId}/attendance` }),
    expected: [401, 418, 200, 200],
  },
  {
    name: 'GET attendance CSV',
    request: (f) => ({ url: `/api/classes/${f.classId}/attendance?format=csv` }),
    expected: [401, 418, 200, 200],
  },
  {
    name: 'GET /api/auth/signup',
    request: () => ({ url: '/api/auth/signup' }),
    expected: [401, 200, 200, 200],
    // "Not registered": the login callback page sends the person to sign-up on this 404.
    unregistered: 404,
  },
  {
    name: 'POST /api/auth/signup',
    request: () => ({
      method: 'POST',
      url: '/api/auth/signup',
      ...dto('signupRequestDto', { nickname: nickname(), email: null }),
    }),
    // Everyone in the matrix is registered already.
    expected: [401, 409, 409, 409],
    // The one caller it is for: a logged-in account without a user, or a withdrawn one signing up again.
    unregistered: 200,
  },
  {
    name: 'DELETE /api/auth/signup',
    request: () => ({ method: 'DELETE', url: '/api/auth/signup' }),
    expected: [401, 200, 200, 200],
    unregistered: 404,
  },
  {
    name: 'GET /api/users',
    request: () => ({ url: '/api/users' }),
    expected: [401, 200, 200, 200],
    unregistered: 404,
  },
  {
    name: 'PATCH /api/users',
    request: () => ({
      method: 'PATCH',
      url: '/api/users',
      ...dto('userUpdateDTO', { nickname: nickname() }),
    }),
    expected: [401, 200, 200, 200],
    unregistered: 404,
  },
  {
    name: 'POST review',
    request: (f) => ({
      method: 'POST',
      url: `/api/classes/${f.classId}/reviews`,
      payload: { rating: 5, content: '두 번째 수강평을 남겨요.' },
    }),
    // The student has reviewed already (409); the teacher and strangers may not review (418).
    expected: [401, 418, 409, 418],
  },
  {
    name: 'PATCH review',
    request: (f) => ({
      method: 'PATCH',
      url: `/api/classes/${f.classId}/reviews/${f.reviewId}`,
      payload: { rating: 3 },
    }),
    expected: [401, 418, 200, 418],
  },
  {
    name: 'DELETE review',
    request: (f) => ({ method: 'DELETE', url: `/api/classes/${f.classId}/reviews/${f.reviewId}` }),
    expected: [401, 418, 200, 418],
  },
  {
    name: 'POST review reply',
    request: (f) => ({
      method: 'POST',
      url: `/api/classes/${f.classId}/reviews/${f.reviewId}/reply`,
      payload: { content: '고마워요!' },
    }),
    expected: [401, 418, 418, 200],
  },
  {
    name: 'GET notifications',
    request: () => ({ url: '/api/notifications' }),
    expected: [401, 200, 200, 200],
  },
  {
    name: 'POST notifications/read',
    request: () => ({ method: 'POST', url: '/api/notifications/read', payload: {} }),
    expected: [401, 200, 200, 200],
  },
  {
    name: 'GET chat history',
    request: (f) => ({ url: `/find/chat/list/${f.classId}` }),
    expected: [401, 418, 200, 200],
    // Not a member of the class (the chat store asks membership only).
    unregistered: 418,
  },
];
const CALLERS: Caller[] = ['anonymous', 'stranger', 'student', 'teacher'];

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

/**
 * Fresh people and a fresh class with a student and a schedule for every cell, so a delete, an enrolment or a
 * withdrawal in one cell never affects another.
 */
async function fixture(): Promise<Fixture> {
  const people = {
    stranger: await createUser(app),
    student: await createUser(app),
    teacher: await createUser(app),
  };
  const classId = await insertClass(app, people.teacher.id);
  await insertEnrolment(app, classId, people.student.id);
  const [row] = await app.db
    .insert(schedules)
    .values({ classId, content: '1강', date: '2026-05-01', startTime: '09:00:00', endTime: '10:00:00' })
    .returning({ id: schedules.id });
  // The student's review (the class's totals kept exact, as the routes keep them).
  const [review] = await app.db
    .insert(reviews)
    .values({ classId, userId: people.student.id, rating: 4, content: '파도처럼 시원한 강의예요.' })
    .returning({ id: reviews.id });
  await app.db.update(classes).set({ reviewCount: 1, ratingTotal: 4 }).where(eq(classes.id, classId));
  return { classId, scheduleId: row?.id ?? 0, reviewId: review?.id ?? 0, people };
}

function send(options: InjectOptions, token: string | null) {
  return app.inject({
    ...options,
    headers: {
      ...(options.headers as Record<string, string>),
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
  });
}

function expectStatus(response: Awaited<ReturnType<typeof send>>, status: Status): void {
  if (status === 200) expect(response.statusCode, response.body).toBe(200);
  else expectError(response, status);
}

/** An access token the server itself signed for `sub`, an hour and a minute ago: expired, and only that. */
async function expiredAccessToken(sub: string): Promise<string> {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Date.now() - (ACCESS_TOKEN_TTL_S + 60) * 1000);
    return await app.tokens.signAccess(sub);
  } finally {
    vi.useRealTimers();
  }
}

describe.each(CASES)('$name', ({ request, expected, unregistered = 401 }) => {
  it.each(CALLERS.map((caller, i) => [caller, expected[i] as Status] as const))(
    '%s → %i',
    async (caller, status) => {
      const f = await fixture();
      const response = await send(request(f), caller === 'anonymous' ? null : f.people[caller].token);
      expectStatus(response, status);
    },
  );

  it('answers 401 to a garbage, expired, foreign-secret or refresh token of a caller it would serve', async () => {
    const f = await fixture();
    // The person the route serves (or the teacher when it serves none of them): only the token is wrong.
    const served = CALLERS.slice(1).find((_, i) => expected[i + 1] === 200) as Person | undefined;
    const sub = f.people[served ?? 'teacher'].id;
    const foreign = createTokens(randomBytes(32).toString('hex'));
    const tokens = {
      garbage: 'garbage',
      malformed: 'a.b.c',
      expired: await expiredAccessToken(sub),
      'another secret': await foreign.signAccess(sub),
      'refresh token': await app.tokens.signRefresh({ sub, jti: 'j', family: 'f' }),
    };
    for (const [kind, token] of Object.entries(tokens)) {
      const response = await send(request(f), token);
      expect(response.statusCode, kind).toBe(401);
      expectError(response, 401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
    // The same caller with a good token is served: the tokens above failed for being what they are.
    if (served !== undefined) expectStatus(await send(request(f), f.people[served].token), 200);
  });

  it(`answers ${unregistered} to an account that never signed up and to a withdrawn user`, async () => {
    const f = await fixture();
    const account = await createAccount(app);
    const withdrawn = await createUser(app);
    await app.db
      .update(users)
      .set({ deletedAt: sql`now()` })
      .where(eq(users.id, withdrawn.id));
    for (const token of [account.token, withdrawn.token]) {
      expectStatus(await send(request(f), token), unregistered);
    }
  });
});
