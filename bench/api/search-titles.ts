import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/database.ts';

/**
 * Titles for the search benchmarks, one per class in turn with the class id after it, so that a search matches
 * a realistic share: the examples of issue 34 (spaced titles found without spaces, 초성, typos, English names)
 * among everyday subjects.
 */
export const SEARCH_TITLES = [
  '아이패드 드로잉',
  '수채화 풍경',
  '홈베이킹 기초',
  'React 실전',
  '통기타 첫걸음',
  '주식 투자',
  '여행 영어 회화',
  '타입스크립트 입문',
  '파이썬 데이터 분석',
  '월급쟁이 재테크',
  '엑셀 업무 자동화',
  '요가 스트레칭',
];

/**
 * Gives every class one of SEARCH_TITLES (by id) followed by its id, then vacuums: the update leaves a dead
 * version of every row, which a platform's autovacuum would clear long before anyone searched (and which
 * doubled the heap a search visits at 100 000 classes where autovacuum is off, as on the machines here).
 */
export async function applySearchTitles(db: Database): Promise<void> {
  await db.execute(sql`
    update classes set name = (array[${sql.join(
      SEARCH_TITLES.map((title) => sql`${title}`),
      sql`, `,
    )}])[1 + id % ${SEARCH_TITLES.length}] || ' ' || id`);
  await db.execute(sql`vacuum analyze classes`);
}
