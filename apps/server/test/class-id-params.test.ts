import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ID } from '@sea/contract/ids';
import { ROUTES, toPath } from '@sea/contract/paths';
import { insertClass } from './classes.ts';
import { expectError } from './expect-envelope.ts';
import { bearer, buildTestApp, createUser, type TestUser } from './helper.ts';
import { jsonPart, multipart } from './multipart.ts';

type Caller = 'user' | 'anyone';
type Route = { name: string; caller: Caller; request: (classId: string) => InjectOptions };

const url = (pattern: string, classId: string) => toPath(pattern, { classId });
const form = multipart([jsonPart('classroomUpdateDto', { name: '바뀐 제목' })]);
const schedule = { content: '특강', date: '2026-05-01', start_time: '10:00:00', end_time: '11:00:00' };

// Every route with a class id in its path (the original API spec, sections 3-5), each with a body it would
// accept.
const ROUTES_WITH_CLASS_ID: Route[] = [
  { name: 'GET class', caller: 'anyone', request: (id) => ({ url: url(ROUTES.class, id) }) },
  {
    name: 'PATCH class',
    caller: 'user',
    request: (id) => ({ method: 'PATCH', url: url(ROUTES.class, id), ...form }),
  },
  {
    name: 'DELETE class',
    caller: 'user',
    request: (id) => ({ method: 'DELETE', url: url(ROUTES.classDelete, id) }),
  },
  { name: 'GET role', caller: 'user', request: (id) => ({ url: url(ROUTES.classRole, id) }) },
  { name: 'GET isActive', caller: 'anyone', request: (id) => ({ url: url(ROUTES.classActive, id) }) },
  {
    name: 'PATCH isActive',
    caller: 'user',
    request: (id) => ({ method: 'PATCH', url: url(ROUTES.classActive, id), payload: { active: true } }),
  },
  { name: 'GET live-ticket', caller: 'user', request: (id) => ({ url: url(ROUTES.liveTicket, id) }) },
  { name: 'GET dashboard', caller: 'user', request: (id) => ({ url: url(ROUTES.dashboard, id) }) },
  {
    name: 'GET dashboard/students',
    caller: 'user',
    request: (id) => ({ url: url(ROUTES.dashboardStudents, id) }),
  },
  { name: 'POST enroll', caller: 'user', request: (id) => ({ method: 'POST', url: url(ROUTES.enroll, id) }) },
  { name: 'GET schedule', caller: 'user', request: (id) => ({ url: url(ROUTES.schedule, id) }) },
  {
    name: 'POST schedule',
    caller: 'user',
    request: (id) => ({ method: 'POST', url: url(ROUTES.schedule, id), payload: schedule }),
  },
  {
    name: 'DELETE schedule',
    caller: 'user',
    request: (id) => ({ method: 'DELETE', url: url(ROUTES.schedule, id), payload: { schedule_id: 1 } }),
  },
  { name: 'GET chat history', caller: 'user', request: (id) => ({ url: url(ROUTES.chatHistory, id) }) },
  { name: 'GET sessions', caller: 'user', request: (id) => ({ url: url(ROUTES.sessions, id) }) },
  { name: 'GET attendance', caller: 'user', request: (id) => ({ url: url(ROUTES.attendance, id) }) },
  { name: 'GET questions', caller: 'user', request: (id) => ({ url: url(ROUTES.classQuestions, id) }) },
  { name: 'GET hands', caller: 'user', request: (id) => ({ url: url(ROUTES.classHands, id) }) },
  { name: 'GET polls', caller: 'user', request: (id) => ({ url: url(ROUTES.classPolls, id) }) },
];

let app: FastifyInstance;
let user: TestUser;
let deletedId: number;
beforeAll(async () => {
  app = await buildTestApp();
  user = await createUser(app);
  deletedId = await insertClass(app, user.id, { deletedAt: new Date() });
});
afterAll(() => app.close());

function send(route: Route, classId: string | number) {
  const options = route.request(String(classId));
  const auth = route.caller === 'user' ? bearer(user) : {};
  return app.inject({ ...options, headers: { ...(options.headers as Record<string, string>), ...auth } });
}

describe.each(ROUTES_WITH_CLASS_ID)('$name', (route) => {
  it('answers 404 for an unknown class (the largest id included) and a deleted one', async () => {
    for (const classId of [999_999, MAX_ID, deletedId]) expectError(await send(route, classId), 404);
  });

  it('answers 400 with a Korean classId message for an id no class can have, never a 500', async () => {
    for (const classId of [MAX_ID + 1, 2 ** 53 - 1, '99999999999999999999', 0, -3, 'abc', '1.5']) {
      const body = expectError(await send(route, classId), 400);
      expect(body.invalid_fields?.classId, String(classId)).toMatch(/[가-힣]/);
    }
  });
});
