import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassItem } from '@sea/contract/classes';
import { REVIEW_PAGE_SIZE, type ReviewItem, type ReviewSummary } from '@sea/contract/reviews';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';

let app: FastifyInstance;
let teacher: TestUser;

beforeAll(async () => {
  app = await buildTestApp();
  teacher = await createUser(app, { nickname: '문어선생' });
});
afterAll(() => app.close());

const GOOD = '파도처럼 시원한 강의였어요. 추천해요!';

async function classWithStudents(count: number): Promise<{ classId: number; students: TestUser[] }> {
  const classId = await insertClass(app, teacher.id);
  const students: TestUser[] = [];
  for (let n = 0; n < count; n += 1) {
    const student = await createUser(app);
    await insertEnrolment(app, classId, student.id);
    students.push(student);
  }
  return { classId, students };
}

const post = (classId: number, user: TestUser | null, body: unknown) =>
  app.inject({
    method: 'POST',
    url: `/api/classes/${classId}/reviews`,
    payload: body as object,
    headers: user ? bearer(user) : {},
  });
const patch = (classId: number, reviewId: number, user: TestUser, body: unknown) =>
  app.inject({
    method: 'PATCH',
    url: `/api/classes/${classId}/reviews/${reviewId}`,
    payload: body as object,
    headers: bearer(user),
  });
const remove = (classId: number, reviewId: number, user: TestUser) =>
  app.inject({ method: 'DELETE', url: `/api/classes/${classId}/reviews/${reviewId}`, headers: bearer(user) });
const reply = (classId: number, reviewId: number, user: TestUser, content: string) =>
  app.inject({
    method: 'POST',
    url: `/api/classes/${classId}/reviews/${reviewId}/reply`,
    payload: { content },
    headers: bearer(user),
  });
const item = async (classId: number) => expectOk<ClassItem>(await app.inject(`/api/classes/${classId}`));
const summary = async (classId: number, user?: TestUser) =>
  expectOk<ReviewSummary>(
    await app.inject({ url: `/api/classes/${classId}/reviews/summary`, headers: user ? bearer(user) : {} }),
  );
const list = async (classId: number, page = 0) =>
  expectOk<ReviewItem[]>(await app.inject(`/api/classes/${classId}/reviews?page=${page}`));

describe('POST /api/classes/{id}/reviews', () => {
  it('an enrolled student reviews once; the item shows the author; a second review is a 409', async () => {
    const { classId, students } = await classWithStudents(1);
    const [student] = students as [TestUser];
    const review = expectOk<ReviewItem>(await post(classId, student, { rating: 4, content: `  ${GOOD}  ` }));
    expect(review).toMatchObject({
      class_id: classId,
      user_id: student.id,
      nickname: student.nickname,
      profile_image_path: null,
      rating: 4,
      content: GOOD,
      reply: null,
    });
    expect(review.created_at).toMatch(/Z$/);
    expectError(await post(classId, student, { rating: 5, content: GOOD }), 409);
    expect(await item(classId)).toMatchObject({ rating_average: 4, review_count: 1 });
  });

  it('answers 418 to the teacher and to someone not enrolled, 401 without a token, 404 for no class', async () => {
    const { classId } = await classWithStudents(0);
    expectError(await post(classId, teacher, { rating: 5, content: GOOD }), 418);
    expectError(await post(classId, await createUser(app), { rating: 5, content: GOOD }), 418);
    expectError(await post(classId, null, { rating: 5, content: GOOD }), 401);
    expectError(await post(999_999, await createUser(app), { rating: 5, content: GOOD }), 404);
    expect(await item(classId)).toMatchObject({ rating_average: null, review_count: 0 });
  });

  it.each([
    ['0 stars', { rating: 0, content: GOOD }],
    ['6 stars', { rating: 6, content: GOOD }],
    ['4.5 stars', { rating: 4.5, content: GOOD }],
    ['stars as text', { rating: '5', content: GOOD }],
    ['no stars', { content: GOOD }],
    ['9 characters', { rating: 3, content: '가나다라마바사아자' }],
    ['10 spaces around 9 characters', { rating: 3, content: `     가나다라마바사아자     ` }],
    ['1001 characters', { rating: 3, content: '가'.repeat(1001) }],
  ])('refuses %s with a 400', async (_name, body) => {
    const { classId, students } = await classWithStudents(1);
    expectError(await post(classId, students[0] as TestUser, body), 400);
  });

  it('takes exactly 10 and exactly 1000 characters (an emoji counts as one)', async () => {
    const { classId, students } = await classWithStudents(2);
    expectOk(await post(classId, students[0] as TestUser, { rating: 1, content: '🌊'.repeat(10) }));
    expectOk(await post(classId, students[1] as TestUser, { rating: 1, content: '가'.repeat(1000) }));
  });

  it('concurrent reviews by one student leave one, and the totals count it once', async () => {
    const { classId, students } = await classWithStudents(1);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post(classId, students[0] as TestUser, { rating: 5, content: GOOD })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(7);
    expect(await item(classId)).toMatchObject({ rating_average: 5, review_count: 1 });
  });
});

describe('the averages, the distribution and the list', () => {
  it('follow every review, edit and delete', async () => {
    const { classId, students } = await classWithStudents(3);
    const [a, b, c] = students as [TestUser, TestUser, TestUser];
    const ra = expectOk<ReviewItem>(await post(classId, a, { rating: 5, content: GOOD }));
    const rb = expectOk<ReviewItem>(await post(classId, b, { rating: 4, content: GOOD }));
    expectOk(await post(classId, c, { rating: 4, content: GOOD }));
    expect(await item(classId)).toMatchObject({ rating_average: 4.3, review_count: 3 });
    expect(await summary(classId, a)).toEqual({
      rating_average: 4.3,
      review_count: 3,
      distribution: [0, 0, 0, 2, 1],
      my_review_id: ra.id,
      my_role: '수강생',
    });
    expect(await summary(classId)).toMatchObject({ my_review_id: null, my_role: '관계없음' });
    expect(await summary(classId, teacher)).toMatchObject({ my_review_id: null, my_role: '강사' });

    const edited = expectOk<ReviewItem>(await patch(classId, rb.id, b, { rating: 1 }));
    expect(edited).toMatchObject({ rating: 1, content: GOOD });
    expect(Date.parse(edited.updated_at)).toBeGreaterThanOrEqual(Date.parse(edited.created_at));
    expect(await item(classId)).toMatchObject({ rating_average: 3.3, review_count: 3 });
    expectOk(await patch(classId, rb.id, b, { content: '다시 들어보니 괜찮았어요.' }));

    expectOk(await remove(classId, ra.id, a));
    expect(await summary(classId)).toMatchObject({
      rating_average: 2.5,
      review_count: 2,
      distribution: [1, 0, 0, 1, 0],
    });
    // Gone, so a new review by the same student is welcome.
    expectOk(await post(classId, a, { rating: 3, content: GOOD }));
    expect(await item(classId)).toMatchObject({ rating_average: 2.7, review_count: 3 });
  });

  it('lists newest first in pages of 10', async () => {
    const { classId, students } = await classWithStudents(REVIEW_PAGE_SIZE + 2);
    for (const student of students) expectOk(await post(classId, student, { rating: 3, content: GOOD }));
    const first = await list(classId);
    const second = await list(classId, 1);
    expect(first).toHaveLength(REVIEW_PAGE_SIZE);
    expect(second).toHaveLength(2);
    expect(await list(classId, 2)).toEqual([]);
    const ids = [...first, ...second].map((review) => review.user_id);
    expect(ids).toEqual(students.map((student) => student.id).reverse());
    expectError(await app.inject('/api/classes/999999/reviews'), 404);
  });
});

describe('edits, deletes and replies', () => {
  it('only the author edits or deletes (418), and a review of another class is a 404', async () => {
    const { classId, students } = await classWithStudents(2);
    const [author, other] = students as [TestUser, TestUser];
    const review = expectOk<ReviewItem>(await post(classId, author, { rating: 5, content: GOOD }));
    expectError(await patch(classId, review.id, other, { rating: 1 }), 418);
    expectError(await patch(classId, review.id, teacher, { rating: 1 }), 418);
    expectError(await remove(classId, review.id, other), 418);
    expectError(await patch(classId, review.id, author, {}), 400);
    expectError(await patch(classId, review.id, author, { content: '짧아요' }), 400);
    const elsewhere = await insertClass(app, teacher.id);
    expectError(await patch(elsewhere, review.id, author, { rating: 1 }), 404);
    expectError(await remove(classId, 999_999, author), 404);
    expect(await item(classId)).toMatchObject({ rating_average: 5, review_count: 1 });
  });

  it('the teacher replies once (409 after), nobody else can (418)', async () => {
    const { classId, students } = await classWithStudents(1);
    const [student] = students as [TestUser];
    const review = expectOk<ReviewItem>(await post(classId, student, { rating: 5, content: GOOD }));
    expectError(await reply(classId, review.id, student, '제가 답할게요'), 418);
    expectError(await reply(classId, review.id, teacher, '   '), 400);
    const answered = expectOk<ReviewItem>(await reply(classId, review.id, teacher, '고마워요!'));
    expect(answered.reply).toBe('고마워요!');
    expectError(await reply(classId, review.id, teacher, '한 번 더'), 409);
    expect((await list(classId))[0]?.reply).toBe('고마워요!');
  });

  it('a student who cancels the enrolment keeps the review, and may still edit it', async () => {
    const { classId, students } = await classWithStudents(1);
    const [student] = students as [TestUser];
    const review = expectOk<ReviewItem>(await post(classId, student, { rating: 2, content: GOOD }));
    expectOk(
      await app.inject({ method: 'DELETE', url: `/api/classes/${classId}/enroll`, headers: bearer(student) }),
    );
    expectOk(await patch(classId, review.id, student, { rating: 3 }));
    expect(await item(classId)).toMatchObject({ rating_average: 3, review_count: 1, student_count: 0 });
  });
});
