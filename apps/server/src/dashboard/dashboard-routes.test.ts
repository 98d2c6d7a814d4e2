import { describe, expect, it } from 'vitest';
import { CLASS_ROLES, type ClassItem } from '@sea/contract/classes';
import type { Schedule } from '@sea/contract/schedules';
import { appWithClass, insertClass } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, type TestUser } from '../../test/helper.ts';
import { schedules } from '../db/schema.ts';

const { app, teacher, student, classId } = await appWithClass({
  teacher: { nickname: '대시보드쌤' },
  fields: { announcement: '공지' },
});
await app.db.insert(schedules).values([
  { classId, content: '둘째', date: '2026-07-02', startTime: '09:00:00', endTime: '10:00:00' },
  { classId, content: '첫째', date: '2026-07-01', startTime: '09:00:00', endTime: '10:00:00' },
]);

type Dashboard = ClassItem & { role: string; schedules: Schedule[] };
const dashboard = (user: TestUser, id = classId) =>
  app.inject({ url: `/api/classes/${id}/dashboard`, headers: bearer(user) });

describe('GET /api/classes/{id}/dashboard', () => {
  it('answers the class item with the caller’s role and the ordered schedule', async () => {
    const forTeacher = expectOk<Dashboard>(await dashboard(teacher));
    expect(forTeacher).toMatchObject({
      id: classId,
      instructor: '대시보드쌤',
      announcement: '공지',
      student_count: 1,
    });
    expect(forTeacher.role).toBe(CLASS_ROLES.teacher);
    expect(forTeacher.schedules.map((s) => [s.content, s.date, s.start_time])).toEqual([
      ['첫째', '2026-07-01', '09:00:00'],
      ['둘째', '2026-07-02', '09:00:00'],
    ]);
    expect(expectOk<Dashboard>(await dashboard(student)).role).toBe(CLASS_ROLES.student);
  });

  it('answers 404 for an unknown or deleted class', async () => {
    expectError(await dashboard(teacher, 999_999), 404);
    const gone = await insertClass(app, teacher.id, { deletedAt: new Date() });
    expectError(await dashboard(teacher, gone), 404);
  });
});
