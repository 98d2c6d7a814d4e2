import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll } from 'vitest';
import type { ClassCreate } from '@sea/contract/classes';
import { classes, enrolments } from '../src/db/schema.ts';
import { bearer, buildTestApp, createUser, type TestUser } from './helper.ts';
import { jsonPart, multipart, type Part } from './multipart.ts';

/** A valid `classroomCreateDto`. */
export function classDto(overrides: Partial<ClassCreate> = {}): ClassCreate {
  return {
    categoryId: 13,
    name: '타입스크립트 입문',
    object: '타입으로 안전한 코드를 씁니다.',
    description: '기초부터 차근차근 배웁니다.',
    instructorInfo: '10년 차 개발자',
    prerequisite: null,
    announcement: '첫 수업은 월요일이에요.',
    ...overrides,
  };
}

/** Creates a class through `POST /api/classes` and answers the response. */
export function postClass(
  app: FastifyInstance,
  teacher: TestUser,
  dto: unknown = classDto(),
  extra: Part[] = [],
) {
  const { payload, headers } = multipart([jsonPart('classroomCreateDto', dto), ...extra]);
  return app.inject({
    method: 'POST',
    url: '/api/classes',
    payload,
    headers: { ...headers, ...bearer(teacher) },
  });
}

/** Inserts a class directly (fast fixtures); `createdAt` lets tests fix the order. */
export async function insertClass(
  app: FastifyInstance,
  teacherId: string,
  fields: Partial<typeof classes.$inferInsert> = {},
): Promise<number> {
  const [row] = await app.db
    .insert(classes)
    .values({ teacherId, categoryId: 1, name: '수업', object: '목표', description: '설명', ...fields })
    .returning({ id: classes.id });
  if (row === undefined) throw new Error('insert failed');
  return row.id;
}

/** Enrols a user directly, keeping student_count exact. */
export async function insertEnrolment(app: FastifyInstance, classId: number, userId: string): Promise<void> {
  await app.db.insert(enrolments).values({ classId, userId });
  await app.db
    .update(classes)
    .set({ studentCount: sql`${classes.studentCount} + 1` })
    .where(sql`${classes.id} = ${classId}`);
}

/**
 * The app of a test file and a teacher, built as the file loads (`const { app, teacher } = await
 * appWithTeacher();` at its top) and closed after its tests.
 */
export async function appWithTeacher(
  teacher: { nickname?: string } = {},
): Promise<{ app: FastifyInstance; teacher: TestUser }> {
  const app = await buildTestApp();
  afterAll(() => app.close());
  return { app, teacher: await createUser(app, teacher) };
}

/** The app of a test file (see appWithTeacher), a teacher, and a class of theirs a student is enrolled in. */
export async function appWithClass(
  options: { teacher?: { nickname?: string }; fields?: Partial<typeof classes.$inferInsert> } = {},
): Promise<{ app: FastifyInstance; teacher: TestUser; student: TestUser; classId: number }> {
  const { app, teacher } = await appWithTeacher(options.teacher);
  const student = await createUser(app);
  const classId = await insertClass(app, teacher.id, options.fields);
  await insertEnrolment(app, classId, student.id);
  return { app, teacher, student, classId };
}
