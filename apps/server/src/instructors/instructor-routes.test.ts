import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instructor } from '@sea/contract/instructors';
import type { User } from '@sea/contract/users';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser } from '../../test/helper.ts';
import { jsonPart, multipart } from '../../test/multipart.ts';
import { users } from '../db/schema.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

const instructor = async (userId: string) =>
  expectOk<Instructor>(await app.inject(`/api/instructors/${encodeURIComponent(userId)}`));

describe('GET /api/instructors/{userId}', () => {
  it('shows the profile, the introduction written on the profile page, classes and totals', async () => {
    const teacher = await createUser(app, { nickname: '바다선생' });
    const { payload, headers } = multipart([
      jsonPart('userUpdateDTO', { introduction: '  10년 동안 바다를 그려 왔어요.  ' }),
    ]);
    const saved = expectOk<User>(
      await app.inject({
        method: 'PATCH',
        url: '/api/users',
        payload,
        headers: { ...headers, ...bearer(teacher) },
      }),
    );
    expect(saved.introduction).toBe('10년 동안 바다를 그려 왔어요.');

    const older = await insertClass(app, teacher.id, { name: '수채화', createdAt: new Date('2026-01-01') });
    const newer = await insertClass(app, teacher.id, { name: '드로잉', createdAt: new Date('2026-02-01') });
    await insertClass(app, teacher.id, { name: '지운 강의', deletedAt: new Date() });
    const students = await Promise.all([createUser(app), createUser(app), createUser(app)]);
    for (const student of students) await insertEnrolment(app, older, student.id);
    await insertEnrolment(app, newer, students[0]?.id ?? '');
    for (const [index, student] of students.slice(0, 2).entries()) {
      expectOk(
        await app.inject({
          method: 'POST',
          url: `/api/classes/${older}/reviews`,
          payload: { rating: index === 0 ? 5 : 2, content: '좋은 강의였어요, 추천합니다.' },
          headers: bearer(student),
        }),
      );
    }

    const page = await instructor(teacher.id);
    expect(page).toMatchObject({
      id: teacher.id,
      nickname: '바다선생',
      profile_image_path: null,
      introduction: '10년 동안 바다를 그려 왔어요.',
      student_count: 4,
      rating_average: 3.5,
      review_count: 2,
    });
    expect(page.classes.map((item) => [item.id, item.student_count])).toEqual([
      [newer, 1],
      [older, 3],
    ]);
  });

  it('a blank introduction clears it; a user without classes has empty totals', async () => {
    const user = await createUser(app);
    await app.db.update(users).set({ introduction: '예전 소개' }).where(eq(users.id, user.id));
    const { payload, headers } = multipart([jsonPart('userUpdateDTO', { introduction: '   ' })]);
    expectOk(
      await app.inject({
        method: 'PATCH',
        url: '/api/users',
        payload,
        headers: { ...headers, ...bearer(user) },
      }),
    );
    expect(await instructor(user.id)).toMatchObject({
      introduction: null,
      student_count: 0,
      rating_average: null,
      review_count: 0,
      classes: [],
    });
  });

  it('refuses an introduction past 500 characters', async () => {
    const user = await createUser(app);
    const { payload, headers } = multipart([jsonPart('userUpdateDTO', { introduction: '가'.repeat(501) })]);
    expectError(
      await app.inject({
        method: 'PATCH',
        url: '/api/users',
        payload,
        headers: { ...headers, ...bearer(user) },
      }),
      400,
    );
  });

  it('answers 404 for an unknown or withdrawn user', async () => {
    expectError(await app.inject('/api/instructors/nobody'), 404);
    const gone = await createUser(app);
    await app.db
      .update(users)
      .set({ deletedAt: sql`now()` })
      .where(eq(users.id, gone.id));
    expectError(await app.inject(`/api/instructors/${gone.id}`), 404);
  });
});
