import { describe, expect, it } from 'vitest';
import { MAX_ID } from '@sea/contract/ids';
import type { Schedule } from '@sea/contract/schedules';
import { appWithClass, insertClass } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer } from '../../test/helper.ts';

const { app, teacher, student, classId } = await appWithClass();

const url = (id = classId) => `/api/classes/${id}/schedule`;
const add = (payload: unknown, user = teacher, id = classId) =>
  app.inject({ method: 'POST', url: url(id), payload: payload as object, headers: bearer(user) });

describe('schedules', () => {
  it('adds entries and lists them by date then start time', async () => {
    const later = expectOk<Schedule>(
      await add({ content: '2강', date: '2026-03-02', start_time: '09:00:00', end_time: '10:00:00' }),
    );
    expect(later).toMatchObject({
      class_id: classId,
      content: '2강',
      date: '2026-03-02',
      start_time: '09:00:00',
      end_time: '10:00:00',
    });
    await add({ content: '1강 오후', date: '2026-03-01', start_time: '14:00:00', end_time: '15:00:00' });
    await add({ content: '1강 오전', date: '2026-03-01', start_time: '09:30:00', end_time: '10:30:00' });
    const listed = expectOk<Schedule[]>(await app.inject({ url: url(), headers: bearer(student) }));
    expect(listed.map((s) => s.content)).toEqual(['1강 오전', '1강 오후', '2강']);
  });

  // A valid entry with one field made wrong.
  const entry = { content: 'x', date: '2026-03-01', start_time: '09:00:00', end_time: '10:00:00' };
  it.each([
    ['a blank content', { ...entry, content: ' ' }, 'content'],
    ['a bad date', { ...entry, date: '2026-13-01' }, 'date'],
    ['a bad time', { ...entry, start_time: '9시' }, 'start_time'],
    ['an end before the start', { ...entry, start_time: '11:00:00' }, 'end_time'],
  ])('answers 400 for %s', async (_name, body, field) => {
    const error = expectError(await add(body), 400);
    expect(error.invalid_fields?.[field]).toMatch(/[가-힣]/);
  });

  it('answers 400 for malformed JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: url(),
      payload: '{"content": "x",',
      headers: { ...bearer(teacher), 'content-type': 'application/json' },
    });
    expectError(response, 400);
  });

  it('deletes an entry of this class; another class’s entry or an unknown one answers 404', async () => {
    const entry = expectOk<Schedule>(
      await add({ content: '삭제', date: '2026-04-01', start_time: '09:00:00', end_time: '10:00:00' }),
    );
    const otherClass = await insertClass(app, teacher.id);
    const remove = (id: number, scheduleId: number) =>
      app.inject({
        method: 'DELETE',
        url: url(id),
        payload: { schedule_id: scheduleId },
        headers: bearer(teacher),
      });
    expectError(await remove(otherClass, entry.id), 404);
    expectOk(await remove(classId, entry.id));
    expectError(await remove(classId, entry.id), 404);
    expectError(
      await app.inject({ method: 'DELETE', url: url(), payload: {}, headers: bearer(teacher) }),
      400,
    );
    // The largest id is merely unknown; anything above it cannot be an id at all (never a database error).
    expectError(await remove(classId, MAX_ID), 404);
    for (const scheduleId of [MAX_ID + 1, 2 ** 53 - 1, 0, 1.5]) {
      const body = expectError(await remove(classId, scheduleId), 400);
      expect(body.invalid_fields?.schedule_id, String(scheduleId)).toMatch(/[가-힣]/);
    }
  });
});
