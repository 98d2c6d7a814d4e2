import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ClassItem, ClassStudent } from '@sea/contract/classes';
import { appWithTeacher, insertClass } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, createUser, type TestUser } from '../../test/helper.ts';
import { enrolments } from '../db/schema.ts';

const { app, teacher } = await appWithTeacher();

const enroll = (classId: number, user: TestUser) =>
  app.inject({ method: 'POST', url: `/api/classes/${classId}/enroll`, headers: bearer(user) });
const countOf = async (classId: number) =>
  expectOk<ClassItem>(await app.inject(`/api/classes/${classId}`)).student_count;

describe('POST /api/classes/{id}/enroll', () => {
  it('enrols once; a second time answers 418; the count follows', async () => {
    const classId = await insertClass(app, teacher.id);
    const student = await createUser(app);
    expectOk(await enroll(classId, student));
    expect(await countOf(classId)).toBe(1);
    expectError(await enroll(classId, student), 418);
    expect(await countOf(classId)).toBe(1);
  });

  it('answers 418 to the teacher, 404 for unknown or deleted classes', async () => {
    const classId = await insertClass(app, teacher.id);
    expectError(await enroll(classId, teacher), 418);
    const student = await createUser(app);
    expectError(await enroll(999_999, student), 404);
    const gone = await insertClass(app, teacher.id, { deletedAt: new Date() });
    expectError(await enroll(gone, student), 404);
  });

  it('50 simultaneous enrolments of one user leave exactly one, and the count is exact', async () => {
    const classId = await insertClass(app, teacher.id);
    const student = await createUser(app);
    const others = await Promise.all(Array.from({ length: 5 }, () => createUser(app)));
    const answers = await Promise.all([
      ...Array.from({ length: 50 }, () => enroll(classId, student)),
      ...others.map((other) => enroll(classId, other)),
    ]);
    const mine = answers.slice(0, 50).map((a) => a.statusCode);
    expect(mine.filter((s) => s === 200)).toHaveLength(1);
    expect(mine.filter((s) => s === 418)).toHaveLength(49);
    expect(answers.slice(50).every((a) => a.statusCode === 200)).toBe(true);
    const rows = await app.db.select().from(enrolments).where(eq(enrolments.classId, classId));
    expect(rows).toHaveLength(6);
    expect(await countOf(classId)).toBe(6);
  });
});

const cancel = (classId: number, user: TestUser) =>
  app.inject({ method: 'DELETE', url: `/api/classes/${classId}/enroll`, headers: bearer(user) });

describe('DELETE /api/classes/{id}/enroll', () => {
  it('cancels once (the count drops, the role is gone); a second time answers 418', async () => {
    const classId = await insertClass(app, teacher.id);
    const student = await createUser(app);
    const other = await createUser(app);
    expectOk(await enroll(classId, student));
    expectOk(await enroll(classId, other));
    expect(await countOf(classId)).toBe(2);
    expectOk(await cancel(classId, student));
    expect(await countOf(classId)).toBe(1);
    const role = await app.inject({ url: `/api/classes/${classId}/role`, headers: bearer(student) });
    expect(expectOk(role)).toBe('관계없음');
    expectError(await cancel(classId, student), 418);
    expect(await countOf(classId)).toBe(1);
    // Enrolling again works.
    expectOk(await enroll(classId, student));
    expect(await countOf(classId)).toBe(2);
  });

  it('answers 418 to the teacher and a stranger, 404 for an unknown class, 401 without a token', async () => {
    const classId = await insertClass(app, teacher.id);
    expectError(await cancel(classId, teacher), 418);
    expectError(await cancel(classId, await createUser(app)), 418);
    expectError(await cancel(999_999, await createUser(app)), 404);
    expectError(await app.inject({ method: 'DELETE', url: `/api/classes/${classId}/enroll` }), 401);
  });

  it('simultaneous cancels of one student drop the count once', async () => {
    const classId = await insertClass(app, teacher.id);
    const student = await createUser(app);
    expectOk(await enroll(classId, student));
    const answers = await Promise.all(Array.from({ length: 10 }, () => cancel(classId, student)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 418)).toHaveLength(9);
    expect(await countOf(classId)).toBe(0);
  });
});

describe('GET /api/classes/{id}/dashboard/students', () => {
  it('lists students with their enrolment time, for the teacher only', async () => {
    const classId = await insertClass(app, teacher.id);
    const first = await createUser(app, { email: 'first@example.com' });
    const second = await createUser(app);
    const before = Date.now();
    expectOk(await enroll(classId, first));
    expectOk(await enroll(classId, second));
    const students = expectOk<ClassStudent[]>(
      await app.inject({ url: `/api/classes/${classId}/dashboard/students`, headers: bearer(teacher) }),
    );
    expect(students.map((s) => [s.id, s.nickname, s.email, s.profile_image_path])).toEqual([
      [first.id, first.nickname, 'first@example.com', null],
      [second.id, second.nickname, null, null],
    ]);
    for (const student of students) {
      // The enrolment time, not the account's creation time (which came earlier).
      expect(Date.parse(student.created_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(student.created_at).toMatch(/Z$/);
    }
    expectError(
      await app.inject({ url: `/api/classes/${classId}/dashboard/students`, headers: bearer(first) }),
      418,
    );
  });
});
