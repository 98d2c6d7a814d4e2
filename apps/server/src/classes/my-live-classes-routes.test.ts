import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyLiveClass } from '@sea/contract/classes';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';

let app: FastifyInstance;
let teacher: TestUser;
let student: TestUser;
let stranger: TestUser;
const ids: Record<string, number> = {};
beforeAll(async () => {
  app = await buildTestApp();
  teacher = await createUser(app);
  student = await createUser(app);
  stranger = await createUser(app);
  const other = await createUser(app);
  ids.taughtLive = await insertClass(app, teacher.id, { isActive: true });
  ids.taughtIdle = await insertClass(app, teacher.id, { isActive: false });
  ids.enrolledLive = await insertClass(app, other.id, { isActive: true });
  ids.enrolledIdle = await insertClass(app, other.id, { isActive: false });
  ids.otherLive = await insertClass(app, other.id, { isActive: true });
  await insertEnrolment(app, ids.enrolledLive, student.id);
  await insertEnrolment(app, ids.enrolledIdle, student.id);
  // The teacher is also a student elsewhere: one account, both roles.
  await insertEnrolment(app, ids.enrolledLive, teacher.id);
});
afterAll(() => app.close());

const mine = (user: TestUser) => app.inject({ url: '/api/users/live-classes', headers: bearer(user) });

describe('GET /api/users/live-classes', () => {
  it('answers the caller’s live classes only, with the role in each', async () => {
    expect(expectOk<MyLiveClass[]>(await mine(teacher))).toEqual([
      { id: ids.taughtLive, role: '강사' },
      { id: ids.enrolledLive, role: '수강생' },
    ]);
    expect(expectOk<MyLiveClass[]>(await mine(student))).toEqual([{ id: ids.enrolledLive, role: '수강생' }]);
    expect(expectOk<MyLiveClass[]>(await mine(stranger))).toEqual([]);
  });

  it('leaves out deleted classes and needs a token', async () => {
    expectOk(
      await app.inject({
        method: 'DELETE',
        url: `/api/classes/${ids.taughtLive}/delete`,
        headers: bearer(teacher),
      }),
    );
    expect(expectOk<MyLiveClass[]>(await mine(teacher)).map((item) => item.id)).toEqual([ids.enrolledLive]);
    expectError(await app.inject('/api/users/live-classes'), 401);
  });
});
