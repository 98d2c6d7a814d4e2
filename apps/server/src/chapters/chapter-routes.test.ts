import { describe, expect, it } from 'vitest';
import type { Chapter } from '@sea/contract/chapters';
import { ROUTES, toPath } from '@sea/contract/paths';
import { appWithClass, insertClass } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, createUser, type TestUser } from '../../test/helper.ts';
import { insertSession, writeReplayFiles } from '../../test/sessions.ts';
import { boardStages } from '../db/schema.ts';

const { app, teacher, student, classId } = await appWithClass();
const stranger = await createUser(app);
const MINUTE = 60_000;

type Call = { method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'; user?: TestUser; payload?: object };
const chapters = (sessionId: number, { method = 'GET', user = teacher, payload }: Call = {}, id = classId) =>
  app.inject({
    method,
    url: toPath(ROUTES.sessionChapters, { classId: id, sessionId }),
    headers: bearer(user),
    payload,
  });
const chapter = (
  sessionId: number,
  chapterId: string,
  { method = 'PATCH', user = teacher, payload }: Call = {},
) =>
  app.inject({
    method,
    url: toPath(ROUTES.sessionChapter, { classId, sessionId, chapterId }),
    headers: bearer(user),
    payload,
  });
const view = (list: Chapter[]) => list.map((c) => [c.kind, c.offset_ms, c.duration_ms, c.title]);

/** A ready replay an hour long with a minute paused at 10:00 (the replay is 59 minutes), two whiteboard pages. */
async function readyWithPages() {
  const session = await insertSession(app, classId);
  writeReplayFiles(app, session, undefined, {
    sessionEndMs: 60 * MINUTE,
    durationMs: 59 * MINUTE,
    cuts: [{ atMs: 10 * MINUTE, lengthMs: MINUTE }],
  });
  const at = (ms: number) => new Date(session.startedAt.getTime() + ms);
  const pages = await app.db
    .insert(boardStages)
    .values([
      { sessionId: session.id, materialId: 0, page: 1, at: at(0) },
      { sessionId: session.id, materialId: 0, page: 2, at: at(5 * MINUTE) },
    ])
    .returning({ id: boardStages.id });
  return { session, pages: pages.map((page) => page.id) };
}

describe('chapters', () => {
  it('joins the page chapters and the marks in one list the teacher adds to, moves, renames and trims', async () => {
    const { session, pages } = await readyWithPages();
    // A mark at 15:00 of the replay is at 16:00 of the session (the pause is cut out), and reads back as 15:00.
    const added = expectOk<Chapter[]>(
      await chapters(session.id, {
        method: 'POST',
        payload: { offset_ms: 15 * MINUTE, title: ' 파동의 간섭 ' },
      }),
    );
    expect(view(added)).toEqual([
      ['page', 0, 5 * MINUTE, '빈 페이지 1'],
      ['page', 5 * MINUTE, 10 * MINUTE, '빈 페이지 2'],
      ['mark', 15 * MINUTE, 44 * MINUTE, '파동의 간섭'],
    ]);
    const markId = added[2]?.id ?? '';
    expect(markId).toMatch(/^mark-\d+$/);
    expect(added[0]?.id).toBe(`page-${pages[0]}`);
    // Students read the same list.
    expect(expectOk<Chapter[]>(await chapters(session.id, { user: student }))).toEqual(added);

    const moved = expectOk<Chapter[]>(
      await chapter(session.id, markId, { payload: { offset_ms: 20 * MINUTE, title: '정리' } }),
    );
    expect(view(moved)[2]).toEqual(['mark', 20 * MINUTE, 39 * MINUTE, '정리']);
    const renamed = expectOk<Chapter[]>(
      await chapter(session.id, `page-${pages[1]}`, { payload: { title: '도입' } }),
    );
    expect(renamed[1]).toMatchObject({ title: '도입', renamed: true });
    // The older bulk rename (a page change's bare id) still works; a blank title gives the page's own back.
    const bulk = await chapters(session.id, {
      method: 'PATCH',
      payload: {
        chapters: [
          { id: pages[1], title: '' },
          { id: markId, title: '마무리' },
        ],
      },
    });
    expect(view(expectOk<Chapter[]>(bulk)).map((row) => row[3])).toEqual([
      '빈 페이지 1',
      '빈 페이지 2',
      '마무리',
    ]);

    const trimmed = expectOk<Chapter[]>(await chapter(session.id, `page-${pages[0]}`, { method: 'DELETE' }));
    expect(trimmed.map((c) => c.title)).toEqual(['빈 페이지 2', '마무리']);
    const left = expectOk<Chapter[]>(await chapter(session.id, markId, { method: 'DELETE' }));
    expect(left.map((c) => c.id)).toEqual([`page-${pages[1]}`]);
    expectError(await chapter(session.id, markId, { method: 'DELETE' }), 404);
  });

  it('puts a mark without a time at the live lecture’s now, and asks for a time once it ended', async () => {
    const live = await insertSession(app, classId, {
      startedAt: new Date(Date.now() - 2 * MINUTE),
      endedAt: null,
      recordingState: 'recording',
    });
    const list = expectOk<Chapter[]>(
      await chapters(live.id, { method: 'POST', payload: { title: '새 챕터' } }),
    );
    expect(list).toHaveLength(1);
    expect(Math.abs((list[0]?.offset_ms ?? 0) - 2 * MINUTE)).toBeLessThan(10_000);
    const ended = await insertSession(app, classId, { recordingState: 'none' });
    const body = expectError(
      await chapters(ended.id, { method: 'POST', payload: { title: '새 챕터' } }),
      400,
    );
    expect(body.invalid_fields).toMatchObject({ offset_ms: '시간(offset_ms)을 보내 주세요.' });
  });

  it('refuses students, strangers, other classes’ chapters and bad input', async () => {
    const { session, pages } = await readyWithPages();
    const mark = expectOk<Chapter[]>(
      await chapters(session.id, { method: 'POST', payload: { offset_ms: 1_000, title: '하나' } }),
    ).find((c) => c.kind === 'mark');
    const markId = mark?.id ?? '';
    // A student writes nothing; a stranger reads nothing.
    expectError(
      await chapters(session.id, { method: 'POST', user: student, payload: { title: '몰래' } }),
      418,
    );
    expectError(await chapter(session.id, markId, { user: student, payload: { title: '몰래' } }), 418);
    expectError(await chapter(session.id, markId, { method: 'DELETE', user: student }), 418);
    expectError(await chapters(session.id, { user: stranger }), 418);
    // Another class's session, and another session's chapter, are not found.
    const other = await insertClass(app, teacher.id);
    const elsewhere = await insertSession(app, other);
    expectError(await chapters(session.id, {}, other), 404);
    expectError(await chapter(elsewhere.id, markId, { payload: { title: '남의 것' } }), 404);
    expectError(await chapter(elsewhere.id, `page-${pages[0]}`, { method: 'DELETE' }), 404);
    // Bad input: a blank or long title, a negative or too late time, a page chapter's time, a malformed id.
    const post = (payload: object) => chapters(session.id, { method: 'POST', payload });
    expect(expectError(await post({ offset_ms: 0, title: '  ' }), 400).invalid_fields).toMatchObject({
      title: '챕터 이름을 입력해 주세요.',
    });
    expect(
      expectError(await post({ offset_ms: 0, title: '가'.repeat(101) }), 400).invalid_fields,
    ).toMatchObject({
      title: '챕터 이름은 100자 이하로 입력해 주세요.',
    });
    expectError(await post({ offset_ms: -1, title: '음수' }), 400);
    expectError(await post({ offset_ms: 1.5, title: '소수' }), 400);
    expect(expectError(await post({ offset_ms: 2 * 3600_000, title: '끝 너머' }), 400).message_kor).toBe(
      '강의 길이를 넘는 시간이에요.',
    );
    expectError(await chapter(session.id, `page-${pages[0]}`, { payload: { offset_ms: 0 } }), 400);
    expectError(await chapter(session.id, markId, { payload: { title: '' } }), 400);
    expectError(await chapter(session.id, 'slide-1', { payload: { title: '가' } }), 400);
    expectError(await chapter(session.id, 'mark-99999999999', { payload: { title: '가' } }), 400);
  });
});
