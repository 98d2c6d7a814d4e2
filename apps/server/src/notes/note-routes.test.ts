import { describe, expect, it } from 'vitest';
import type { Note } from '@sea/contract/notes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { appWithClass, insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, createUser, type TestUser } from '../../test/helper.ts';
import { insertSession, writeReplayFiles } from '../../test/sessions.ts';
import { sessionNotes } from '../db/schema.ts';

const { app, teacher, student, classId } = await appWithClass({ fields: { name: '파동 물리' } });
const classmate = await createUser(app);
await insertEnrolment(app, classId, classmate.id);
const stranger = await createUser(app);
const MINUTE = 60_000;

type Call = { method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'; user?: TestUser; payload?: object };
const notes = (sessionId: number, { method = 'GET', user = student, payload }: Call = {}) =>
  app.inject({
    method,
    url: toPath(ROUTES.sessionNotes, { classId, sessionId }),
    headers: bearer(user),
    payload,
  });
const note = (sessionId: number, noteId: number, { method = 'PATCH', user = student, payload }: Call = {}) =>
  app.inject({
    method,
    url: toPath(ROUTES.sessionNote, { classId, sessionId, noteId }),
    headers: bearer(user),
    payload,
  });

/** A ready replay an hour long with a minute paused at 10:00. */
async function ready(title: string | null = null, startedAt?: Date) {
  const session = await insertSession(app, classId, { title, ...(startedAt ? { startedAt } : {}) });
  writeReplayFiles(app, session, undefined, {
    sessionEndMs: 60 * MINUTE,
    durationMs: 59 * MINUTE,
    cuts: [{ atMs: 10 * MINUTE, lengthMs: MINUTE }],
  });
  return session;
}

describe('notes', () => {
  it('keeps each member’s notes on the replay clock, in time order, and lets them edit and delete them', async () => {
    const session = await ready();
    const later = expectOk<Note>(
      await notes(session.id, {
        method: 'POST',
        payload: { offset_ms: 12 * MINUTE + 34_000, content: '여기 시험에 나옴' },
      }),
    );
    expect(later).toMatchObject({
      session_id: session.id,
      offset_ms: 12 * MINUTE + 34_000,
      content: '여기 시험에 나옴',
    });
    // The note is stored at the session's moment: 13:34 with the minute paused before it.
    const [row] = await app.db.select().from(sessionNotes);
    expect((row?.at.getTime() ?? 0) - session.startedAt.getTime()).toBe(13 * MINUTE + 34_000);
    const first = expectOk<Note>(
      await notes(session.id, { method: 'POST', payload: { offset_ms: 0, content: '첫 줄\n둘째 줄' } }),
    );
    expect(expectOk<Note[]>(await notes(session.id)).map((n) => n.id)).toEqual([first.id, later.id]);
    const edited = expectOk<Note>(
      await note(session.id, first.id, { payload: { content: '고친 메모', offset_ms: 20 * MINUTE } }),
    );
    expect(edited).toMatchObject({ content: '고친 메모', offset_ms: 20 * MINUTE });
    expect(expectOk<Note[]>(await notes(session.id)).map((n) => n.id)).toEqual([later.id, first.id]);
    expect(expectOk(await note(session.id, first.id, { method: 'DELETE' }))).toBe('success');
    expect(expectOk<Note[]>(await notes(session.id))).toHaveLength(1);
    // The teacher writes their own notes too, and sees only theirs.
    expectOk(
      await notes(session.id, {
        method: 'POST',
        user: teacher,
        payload: { offset_ms: 5, content: '강사 메모' },
      }),
    );
    expect(expectOk<Note[]>(await notes(session.id, { user: teacher })).map((n) => n.content)).toEqual([
      '강사 메모',
    ]);
  });

  it('lands a note taken live at the lecture’s now', async () => {
    const live = await insertSession(app, classId, {
      startedAt: new Date(Date.now() - 3 * MINUTE),
      endedAt: null,
      recordingState: 'recording',
    });
    const taken = expectOk<Note>(
      await notes(live.id, { method: 'POST', payload: { content: '지금 이 부분' } }),
    );
    expect(Math.abs(taken.offset_ms - 3 * MINUTE)).toBeLessThan(10_000);
  });

  it('shows nobody else a note, not even the teacher, and refuses strangers and bad input', async () => {
    const session = await ready();
    const own = expectOk<Note>(
      await notes(session.id, { method: 'POST', payload: { offset_ms: 1_000, content: '내 메모' } }),
    );
    for (const user of [teacher, classmate]) {
      expect(expectOk<Note[]>(await notes(session.id, { user }))).toEqual([]);
      expectError(await note(session.id, own.id, { user, payload: { content: '바꿈' } }), 404);
      expectError(await note(session.id, own.id, { user, method: 'DELETE' }), 404);
    }
    expectError(await notes(session.id, { user: stranger }), 418);
    expectError(await notes(session.id, { user: stranger, method: 'POST', payload: { content: '가' } }), 418);
    // Another class's session, and the note under another session's path, are not found.
    const otherClass = await insertClass(app, teacher.id);
    const elsewhere = await insertSession(app, otherClass);
    expectError(
      await app.inject({
        url: toPath(ROUTES.sessionNotes, { classId, sessionId: elsewhere.id }),
        headers: bearer(student),
      }),
      404,
    );
    const sibling = await ready();
    expectError(await note(sibling.id, own.id, { payload: { content: '바꿈' } }), 404);
    // Lengths: 2 000 characters fit, 2 001 do not; blank is refused; the time stays inside the replay.
    const post = (payload: object) => notes(session.id, { method: 'POST', payload });
    expectOk(await post({ offset_ms: 0, content: '가'.repeat(2_000) }));
    expect(
      expectError(await post({ offset_ms: 0, content: '가'.repeat(2_001) }), 400).invalid_fields,
    ).toMatchObject({
      content: '메모는 2,000자 이하로 입력해 주세요.',
    });
    expect(expectError(await post({ offset_ms: 0, content: ' \n ' }), 400).invalid_fields).toMatchObject({
      content: '메모 내용을 입력해 주세요.',
    });
    expectError(await post({ offset_ms: 60 * MINUTE, content: '끝 너머' }), 400);
    expectError(await post({ offset_ms: '12:34', content: '문자열 시간' }), 400);
    expectError(await note(session.id, own.id, { payload: { content: '' } }), 400);
    expectError(await note(session.id, 0, { payload: { content: '가' } }), 400);
  });

  it('exports the caller’s notes of the class as Markdown, lecture by lecture, with a Korean file name', async () => {
    const ownClass = await insertClass(app, teacher.id, { name: '파동 물리' });
    await insertEnrolment(app, ownClass, student.id);
    const other = app;
    const writer = student;
    const post = (sessionId: number, offset: number, content: string, user = writer) =>
      other.inject({
        method: 'POST',
        url: toPath(ROUTES.sessionNotes, { classId: ownClass, sessionId }),
        headers: bearer(user),
        payload: { offset_ms: offset, content },
      });
    const first = await insertSession(other, ownClass, {
      title: '1강 파동',
      startedAt: new Date('2026-03-04T05:00:00Z'),
    });
    const second = await insertSession(other, ownClass, {
      title: null,
      startedAt: new Date('2026-03-11T05:00:00Z'),
      endedAt: new Date('2026-03-11T07:00:00Z'),
    });
    await insertSession(other, ownClass, { startedAt: new Date('2026-03-18T05:00:00Z') });
    expectOk(await post(second.id, 3_723_000, '둘째 시간'));
    expectOk(await post(first.id, 754_000, '여기 시험에 나옴\n[정리](https://example.com)'));
    const response = await other.inject({
      url: `${toPath(ROUTES.classNotes, { classId: ownClass })}?format=md`,
      headers: bearer(writer),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="notes-${ownClass}.md"; filename*=UTF-8''${encodeURIComponent('파동 물리 메모.md')}`,
    );
    expect(response.body).toBe(
      [
        '# 파동 물리 메모',
        '',
        '## 1강 파동 (2026-03-04 14:00)',
        '',
        '- **12:34** 여기 시험에 나옴',
        '  [정리](https://example.com)',
        '',
        '## 강의 (2026-03-11 14:00)',
        '',
        '- **1:02:03** 둘째 시간',
        '',
      ].join('\n'),
    );
    // The teacher's export holds only the teacher's own notes.
    expectOk(await post(first.id, 1_000, '강사 메모', teacher));
    const teacherExport = await other.inject({
      url: toPath(ROUTES.classNotes, { classId: ownClass }),
      headers: bearer(teacher),
    });
    expect(teacherExport.body).toContain('강사 메모');
    expect(teacherExport.body).not.toContain('시험');
    expectError(
      await other.inject({
        url: `${toPath(ROUTES.classNotes, { classId: ownClass })}?format=pdf`,
        headers: bearer(writer),
      }),
      400,
    );
    const outsider = await createUser(other);
    expectError(
      await other.inject({
        url: toPath(ROUTES.classNotes, { classId: ownClass }),
        headers: bearer(outsider),
      }),
      418,
    );
  });
});
