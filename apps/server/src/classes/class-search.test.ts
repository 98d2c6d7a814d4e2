import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_PAGE_SIZE, type ClassItem } from '@sea/contract/classes';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';
import { classes } from '../db/schema.ts';

// Runs on PostgreSQL and on PGlite (projects server and server-pglite): the same answers on both.
let app: FastifyInstance;
let painter: TestUser;
let coder: TestUser;
const ids: Record<string, number> = {};
const PROGRAMMING = 13;
const MUSIC = 6;
const DRAWING = 2;

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

beforeAll(async () => {
  app = await buildTestApp();
  painter = await createUser(app, { nickname: '그림쟁이김' });
  coder = await createUser(app, { nickname: 'DevPark' });
  const fixtures = [
    ['drawing', painter, DRAWING, '아이패드 드로잉 기초', '선 긋기부터 채색까지 배워요.', 1],
    ['watercolor', painter, DRAWING, '수채화 풍경', '물감 번지기와 드로잉 스케치를 다뤄요.', 2],
    ['react', coder, PROGRAMMING, 'React 실전 프로젝트', '훅과 상태 관리를 배워요.', 3],
    ['ts', coder, PROGRAMMING, '타입스크립트 입문', 'TypeScript로 안전한 코드를 써요. 100% 실습', 4],
    ['guitar', coder, MUSIC, '통기타 첫걸음', '코드 잡는 법을 배워요.', 5],
  ] as const;
  for (const [key, teacher, categoryId, name, description, minute] of fixtures) {
    ids[key] = await insertClass(app, teacher.id, { categoryId, name, description, createdAt: at(minute) });
  }
  const students = await Promise.all([createUser(app), createUser(app)]);
  for (const student of students) await insertEnrolment(app, ids.guitar ?? 0, student.id);
  await insertEnrolment(app, ids.react ?? 0, students[0]?.id ?? '');
  await app.db
    .update(classes)
    .set({ reviewCount: 2, ratingTotal: 9 })
    .where(eq(classes.id, ids.ts ?? 0));
  await app.db
    .update(classes)
    .set({ reviewCount: 1, ratingTotal: 4 })
    .where(eq(classes.id, ids.react ?? 0));
});
afterAll(() => app.close());

async function search(query: string): Promise<number[]> {
  const items = expectOk<ClassItem[]>(await app.inject(`/api/classes?${query}`));
  return items.map(({ id }) => id);
}
const q = (text: string) => search(`q=${encodeURIComponent(text)}`);

describe('GET /api/classes?q=', () => {
  it('finds a class by two Hangul syllables of a word, title matches first', async () => {
    expect(await q('드로')).toEqual([ids.drawing, ids.watercolor]);
  });

  it('finds by one Hangul syllable', async () => {
    expect(await q('첫')).toEqual([ids.guitar]);
    expect(await q('긋')).toEqual([ids.drawing]);
    expect(await q('채')).toEqual([ids.watercolor, ids.drawing]); // in a title before in a description
  });

  it('matches Latin letters whatever their case, and mixed Hangul and Latin words', async () => {
    expect(await q('react')).toEqual([ids.react]);
    expect(await q('typescript 입문')).toEqual([ids.ts]);
    expect(await q('React 훅')).toEqual([ids.react]);
  });

  it('needs every word', async () => {
    expect(await q('드로잉 React')).toEqual([]);
  });

  it("finds the classes of an instructor's nickname, in part too", async () => {
    expect(new Set(await q('그림쟁이'))).toEqual(new Set([ids.drawing, ids.watercolor]));
    expect(new Set(await q('devp'))).toEqual(new Set([ids.react, ids.ts, ids.guitar]));
  });

  it('finds by category name and by description', async () => {
    expect(await q('음악')).toEqual([ids.guitar]);
    expect(new Set(await q('프로그래밍'))).toEqual(new Set([ids.react, ids.ts]));
    expect(await q('번지기')).toEqual([ids.watercolor]);
  });

  it('takes % and _ literally', async () => {
    expect(await q('100%')).toEqual([ids.ts]);
    expect(await q('%')).toEqual([ids.ts]);
    expect(await q('_')).toEqual([]);
  });

  it('treats a blank query as no search, and refuses one past 50 characters', async () => {
    expect(await q('   ')).toEqual(await search(''));
    expectError(await app.inject(`/api/classes?q=${'가'.repeat(51)}`), 400);
  });

  it('refuses a query holding a control character (U+0000 answered 500) and says why in Korean', async () => {
    for (const query of ['%00', '%EB%B0%94%00%EB%8B%A4', '%1B']) {
      const body = expectError(await app.inject(`/api/classes?q=${query}`), 400);
      expect(body.invalid_fields?.q).toContain('제어 문자');
    }
  });

  it('searches within a category, a target and a sort', async () => {
    expect(await search(`q=${encodeURIComponent('배워요')}&category=${PROGRAMMING}`)).toEqual([ids.react]);
    expect(await search(`q=${encodeURIComponent('배워요')}&sort=students`)).toEqual([
      ids.guitar,
      ids.react,
      ids.drawing,
    ]);
    const created = expectOk<ClassItem[]>(
      await app.inject({
        url: `/api/classes?target=created&q=${encodeURIComponent('기타')}`,
        headers: bearer(coder),
      }),
    );
    expect(created.map(({ id }) => id)).toEqual([ids.guitar]);
  });

  it('pages search results like the other lists', async () => {
    for (let n = 0; n < CLASS_PAGE_SIZE; n += 1) {
      await insertClass(app, painter.id, {
        categoryId: MUSIC,
        name: `파도 소리 ${n}`,
        createdAt: at(10 + n),
      });
    }
    const first = await q('파도');
    const second = await search(`q=${encodeURIComponent('파도')}&page=1`);
    expect(first).toHaveLength(CLASS_PAGE_SIZE);
    expect(second).toEqual([]);
  });

  it('answers the same total on every page of a search, past the end and with no match too', async () => {
    await insertClass(app, painter.id, { categoryId: MUSIC, name: '파도 소리 끝', createdAt: at(30) });
    const totalOf = async (query: string) => {
      const response = await app.inject(`/api/classes?${query}`);
      expectOk(response);
      const { data, total } = response.json() as { data: unknown[]; total: unknown };
      return [data.length, total];
    };
    const wave = encodeURIComponent('파도');
    expect(await totalOf(`q=${wave}`)).toEqual([CLASS_PAGE_SIZE, CLASS_PAGE_SIZE + 1]);
    expect(await totalOf(`q=${wave}&page=1`)).toEqual([1, CLASS_PAGE_SIZE + 1]);
    expect(await totalOf(`q=${wave}&page=2`)).toEqual([0, CLASS_PAGE_SIZE + 1]);
    expect(await totalOf(`q=${encodeURIComponent('없는검색어')}`)).toEqual([0, 0]);
    expect(await totalOf(`q=${encodeURIComponent('없는검색어')}&page=3`)).toEqual([0, 0]);
  });
});

describe('GET /api/classes?sort=', () => {
  it('orders newest first, by students, by rating (classes without reviews last)', async () => {
    const category = `category=${PROGRAMMING}`;
    expect(await search(`${category}&sort=newest`)).toEqual([ids.ts, ids.react]);
    expect(await search(`${category}&sort=students`)).toEqual([ids.react, ids.ts]);
    expect(await search(`${category}&sort=rating`)).toEqual([ids.ts, ids.react]);
    const byRating = await search(`q=${encodeURIComponent('배워요')}&sort=rating`);
    expect(byRating).toEqual([ids.react, ids.guitar, ids.drawing]);
  });

  it('shows the mean stars and the review count on each item', async () => {
    const [ts] = expectOk<ClassItem[]>(await app.inject(`/api/classes?q=${encodeURIComponent('타입')}`));
    expect(ts).toMatchObject({ rating_average: 4.5, review_count: 2 });
    const [guitar] = expectOk<ClassItem[]>(
      await app.inject(`/api/classes?q=${encodeURIComponent('통기타')}`),
    );
    expect(guitar).toMatchObject({ rating_average: null, review_count: 0, student_count: 2 });
  });

  it('refuses an unknown sort, and the old query forms still work', async () => {
    expectError(await app.inject('/api/classes?sort=best'), 400);
    expect(await search('target=live?page=0&sort=newest')).toEqual([]);
    expect(await search('target=topten&sort=nonsense&q=x')).toEqual(await search('target=topten'));
  });
});
