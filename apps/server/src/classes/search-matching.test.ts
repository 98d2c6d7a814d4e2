import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassItem } from '@sea/contract/classes';
import type { Suggestions } from '@sea/contract/suggestions';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';
import { jsonPart, multipart } from '../../test/multipart.ts';

// Runs on PostgreSQL and on PGlite (projects server and server-pglite): its subject is SQL, and naming
// TEST_DATABASE here puts it in both runs (harness/suite-files.ts), as it reaches the database through HTTP
// only. Issue 34: what people type, which found nothing before the search document (migration 0016): words
// without their spaces, 초성, common typos, English names of Korean titles.
let app: FastifyInstance;
let teacher: TestUser;
let other: TestUser;
const ids: Record<string, number> = {};
const PROGRAMMING = 13;
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

beforeAll(async () => {
  app = await buildTestApp();
  teacher = await createUser(app, { nickname: '바다선생' });
  other = await createUser(app, { nickname: '코딩하는곰' });
  const fixtures = [
    ['english', teacher, 1, '여행 영어 회화', '공항과 호텔에서 쓰는 표현', 1],
    ['ipad', teacher, 2, '아이패드 드로잉 기초', '선 긋기부터 채색까지', 2],
    ['ts', other, PROGRAMMING, '타입스크립트 입문', '안전한 코드를 써요', 3],
    ['python', other, PROGRAMMING, '파이썬 기초', '변수와 함수', 4],
    ['pythonEn', other, PROGRAMMING, 'Python 데이터 분석', '판다스로 표를 다뤄요', 5],
    ['money', teacher, 1, '월급쟁이 재테크', '통장 나누기', 6],
    ['final', teacher, 2, '파이널 컷 편집', '영상 자르기', 7],
  ] as const;
  for (const [key, owner, categoryId, name, description, minute] of fixtures) {
    ids[key] = await insertClass(app, owner.id, { categoryId, name, description, createdAt: at(minute) });
  }
  await insertEnrolment(app, ids.pythonEn ?? 0, teacher.id);
});
afterAll(() => app.close());

async function q(text: string): Promise<number[]> {
  const items = expectOk<ClassItem[]>(await app.inject(`/api/classes?q=${encodeURIComponent(text)}`));
  return items.map(({ id }) => id);
}

describe('GET /api/classes?q= finds what people type', () => {
  it('finds words typed without their spaces', async () => {
    expect(await q('영어회화')).toEqual([ids.english]);
    expect(await q('아이패드드로잉')).toEqual([ids.ipad]);
    expect(await q('ＴｙｐｅＳｃｒｉｐｔ')).toEqual([ids.ts]); // full width, through NFKC and the English name
  });

  it('finds a title by its 초성, and two consonants narrow nothing else', async () => {
    expect(await q('ㅌㅇㅅ')).toEqual([ids.ts]);
    expect(await q('ㅇㅇㅎㅎ')).toEqual([ids.english]);
    expect(await q('ㅎㅎㅎ')).toEqual([]);
  });

  it('finds common typos, and a typo never finds a merely similar title', async () => {
    expect(await q('파이선')).toEqual([ids.python]);
    expect(await q('재태크')).toEqual([ids.money]);
    expect(await q('타잎스크립트')).toEqual([ids.ts]);
    expect(await q('파이선')).not.toContain(ids.final);
  });

  it('finds English names of Korean titles and the other way round, more students first', async () => {
    expect(await q('typescript')).toEqual([ids.ts]);
    expect(await q('python')).toEqual([ids.pythonEn, ids.python]);
    expect(await q('파이썬')).toEqual([ids.python, ids.pythonEn]); // the title as typed counts most
  });

  it('keeps the document up to date when a title changes and when the teacher is renamed', async () => {
    const { payload, headers } = multipart([
      jsonPart('classroomUpdateDto', { name: '비즈니스 이메일 쓰기' }),
    ]);
    const patched = await app.inject({
      method: 'PATCH',
      url: `/api/classes/${ids.english}`,
      payload,
      headers: { ...headers, ...bearer(teacher) },
    });
    expect(patched.statusCode).toBe(200);
    expect(await q('이메일쓰기')).toEqual([ids.english]);
    expect(await q('이매일')).toEqual([ids.english]); // a typo of the new title: its words were added
    expect(await q('영어회화')).toEqual([]);
    const rename = multipart([jsonPart('userUpdateDTO', { nickname: '등대지기' })]);
    const renamed = await app.inject({
      method: 'PATCH',
      url: '/api/users',
      payload: rename.payload,
      headers: { ...rename.headers, ...bearer(teacher) },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await q('등대지기')).sort()).toEqual([ids.english, ids.ipad, ids.money, ids.final].sort());
    expect(await q('바다선생')).toEqual([]);
    const instructors = async (text: string) =>
      expectOk<Suggestions>(await app.inject(`/api/search/suggest?q=${encodeURIComponent(text)}`))
        .instructors;
    // The folded nickname the suggestions compare is stored (migration 0022): it follows the rename too.
    expect((await instructors('등대 지기')).map(({ id }) => id)).toEqual([teacher.id]);
    expect(await instructors('바다선생')).toEqual([]);
  });
});

describe('GET /api/search/suggest', () => {
  const suggest = async (text: string) =>
    expectOk<Suggestions>(await app.inject(`/api/search/suggest?q=${encodeURIComponent(text)}`));

  it('suggests classes best first and instructors with a class', async () => {
    const found = await suggest('파이썬');
    expect(found.classes.map(({ id }) => id)).toEqual([ids.python, ids.pythonEn]);
    expect(found.classes[0]).toEqual({
      id: ids.python,
      name: '파이썬 기초',
      teacher_nickname: '코딩하는곰',
      category: expect.any(String) as string,
    });
    expect((await suggest('코딩')).instructors).toEqual([
      { id: other.id, nickname: '코딩하는곰', profile_image_path: null },
    ]);
    expect((await suggest('타잎스크립트')).classes.map(({ id }) => id)).toEqual([ids.ts]);
  });

  it('answers empty lists for a blank query and refuses what a search refuses, in Korean', async () => {
    expect(await suggest('   ')).toEqual({ classes: [], instructors: [] });
    for (const bad of ['가'.repeat(51), '가 나 다 라 마 바', 'a\u0000b']) {
      expectError(await app.inject(`/api/search/suggest?q=${encodeURIComponent(bad)}`), 400);
    }
  });
});
