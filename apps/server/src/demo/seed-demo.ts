import { count, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/database.ts';
import { accounts, classes, enrolments, schedules, users } from '../db/schema.ts';
import type { Storage } from '../storage/storage.ts';
import { bannerCard } from '../uploads/process-image.ts';
import { bannerImage } from './banner-image.ts';
import { DEMO_CLASSES, DEMO_STUDENTS, DEMO_TEACHERS } from './demo-content.ts';

const SEED_LOCK = 727_275;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Fills an empty database (no accounts at all) with demo teachers, students, classes with banners,
 * enrolments and schedules. No class is live: a class is live only while its teacher broadcasts. Does nothing on a database that has any account, so it is safe
 * at every start and between several servers starting together. Answers whether it seeded.
 */
export async function seedDemo(db: Database, storage: Storage): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  const banners = await Promise.all(
    DEMO_CLASSES.map(async (c) =>
      bannerImage(c.name, c.colors).then(async (bytes) =>
        storage.save('banner', { bytes, extension: 'jpg', card: await bannerCard(bytes) }),
      ),
    ),
  );
  const seeded = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    if (!(await isEmpty(tx))) return false;
    const people = [...DEMO_TEACHERS, ...DEMO_STUDENTS].map((p) => ({ ...p, id: `demo-${p.kakaoId}` }));
    await tx
      .insert(accounts)
      .values(people.map((p) => ({ id: p.id, provider: 'dev', providerUserId: p.kakaoId })));
    await tx.insert(users).values(people.map((p) => ({ id: p.id, nickname: p.nickname, email: p.email })));
    const start = Date.now() - DEMO_CLASSES.length * DAY_MS;
    for (const [index, demo] of DEMO_CLASSES.entries()) {
      const teacher = people[demo.teacher];
      if (teacher === undefined) throw new Error('demo teacher missing');
      const [created] = await tx
        .insert(classes)
        .values({
          teacherId: teacher.id,
          categoryId: demo.categoryId,
          name: demo.name,
          object: demo.object,
          description: demo.description,
          instructorInfo: `${teacher.nickname}의 강의예요.`,
          announcement: demo.announcement ?? null,
          bannerImage: banners[index] ?? null,
          studentCount: demo.students,
          createdAt: new Date(start + index * DAY_MS),
        })
        .returning({ id: classes.id });
      if (created === undefined) throw new Error('demo class insert failed');
      const students = people.slice(DEMO_TEACHERS.length, DEMO_TEACHERS.length + demo.students);
      if (students.length > 0) {
        await tx.insert(enrolments).values(students.map((s) => ({ classId: created.id, userId: s.id })));
      }
      await tx.insert(schedules).values([
        {
          classId: created.id,
          content: '오리엔테이션',
          date: isoDate(index + 1),
          startTime: '19:00:00',
          endTime: '20:00:00',
        },
        {
          classId: created.id,
          content: '1강 실습',
          date: isoDate(index + 8),
          startTime: '19:00:00',
          endTime: '21:00:00',
        },
      ]);
    }
    return true;
  });
  if (!seeded) await Promise.all(banners.map((key) => storage.remove(key)));
  return seeded;
}

async function isEmpty(db: Executor): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(accounts);
  return (row?.n ?? 0) === 0;
}

function isoDate(daysFromNow: number): string {
  return new Date(Date.now() + daysFromNow * DAY_MS).toISOString().slice(0, 10);
}
