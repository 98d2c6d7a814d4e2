import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/database.ts';

export const BENCH_CLASSES = 10_000;
export const BENCH_ENROLMENTS = 100_000;
const TEACHERS = 1_000;
const STUDENTS = 20_000;

/**
 * Fills the database with TEACHERS teachers, STUDENTS students, `classCount` (default BENCH_CLASSES) classes over every category
 * and exactly BENCH_ENROLMENTS distinct enrolments (uneven per class, so the top ten is meaningful), with each
 * class's student_count exact. All in set-based SQL: a few seconds.
 */
export async function seedBenchData(db: Database, classCount = BENCH_CLASSES): Promise<void> {
  await db.execute(sql`
    insert into accounts (id, provider, provider_user_id)
    select 'bench-' || n, 'dev', (900000 + n)::text from generate_series(1, ${TEACHERS + STUDENTS}) n`);
  await db.execute(sql`
    insert into users (id, nickname, email)
    select 'bench-' || n, '사용자' || n, null from generate_series(1, ${TEACHERS + STUDENTS}) n`);
  await db.execute(sql`
    insert into classes (teacher_id, category_id, name, object, description, instructor_info, announcement,
                         banner_image, is_active, created_at)
    select 'bench-' || (1 + n % ${TEACHERS}), 1 + n % 25, '벤치마크 강의 ' || n, '강의 목표 ' || n,
           '강의 설명입니다. ' || repeat('바다 ', 20), '강사 소개', null,
           'banners/00000000-0000-4000-8000-' || lpad(n::text, 12, '0') || '.jpg', n % 10 = 0,
           now() - make_interval(secs => ${classCount} - n)
    from generate_series(1, ${classCount}) n`);
  // Class c gets students from a stride that never repeats within a class; popularity falls with c % 97.
  await db.execute(sql`
    insert into enrolments (class_id, user_id)
    select c.id, 'bench-' || (${TEACHERS} + 1 + (c.id * 7919 + k * 104729) % ${STUDENTS})
    from classes c cross join generate_series(0, 99) k
    where k < 2 + (c.id * 31) % 19
    order by c.id, k
    limit ${BENCH_ENROLMENTS}
    on conflict do nothing`);
  await db.execute(sql`
    update classes set student_count = counts.n
    from (select class_id, count(*)::int as n from enrolments group by class_id) counts
    where classes.id = counts.class_id`);
  await db.execute(sql`analyze`);
}
