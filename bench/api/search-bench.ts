/**
 * Search benchmark: GET /api/classes?q= (one, two and three Hangul syllables, an instructor's nickname) next
 * to the plain list, on 10 000 classes, on PostgreSQL and on PGlite. The bench data's titles are varied
 * (SEARCH_TITLES below) so a search matches a realistic share. The read cache is off (READ_CACHE_MS=0): every
 * request reaches the database, which is what a search mostly does with its varied queries.
 * Run: npm exec -- node bench/api/search-bench.ts   (env: DATABASE_URL, BENCH_DURATION_S, BENCH_CONNECTIONS)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { sql } from 'drizzle-orm';
import type { DatabaseConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/open-database.ts';
import { createTestDatabase } from '../../apps/server/test/helper.ts';
import { startApiServer, stopProcess } from './processes.ts';
import { BENCH_CLASSES, seedBenchData } from './seed-bench-data.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SEARCH_TITLES = [
  '아이패드 드로잉',
  '수채화 풍경',
  '홈베이킹 기초',
  'React 실전',
  '통기타 첫걸음',
  '주식 투자',
];
const ROUTES = [
  '/api/classes?page=0',
  `/api/classes?q=${encodeURIComponent('드')}`,
  `/api/classes?q=${encodeURIComponent('드로')}`,
  `/api/classes?q=${encodeURIComponent('드로잉')}`,
  `/api/classes?q=${encodeURIComponent('react 실전')}`,
  `/api/classes?q=${encodeURIComponent('사용자17')}`,
];

const rows: Record<string, string>[] = [];
const postgres = await createTestDatabase();
const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-search-bench-'));
try {
  await run('PostgreSQL', { kind: 'postgres', url: postgres.url }, { DATABASE_URL: postgres.url });
  // DATABASE_URL blanked: the server would otherwise take the (inherited) PostgreSQL address over PGlite.
  await run(
    'PGlite',
    { kind: 'pglite', dir: path.join(pgliteDir, 'pglite') },
    { DATA_DIR: pgliteDir, DATABASE_URL: '' },
  );
} finally {
  await postgres.drop();
  fs.rmSync(pgliteDir, { recursive: true, force: true });
}
const load1 = os.loadavg()[0]?.toFixed(1);
console.log(
  `\n${BENCH_CLASSES} classes, ${CONNECTIONS} connections, ${DURATION_S} s per run, ${os.cpus().length} CPUs, load ${load1}`,
);
console.table(rows);

async function run(name: string, config: DatabaseConfig, env: Record<string, string>): Promise<void> {
  const opened = await openDatabase(config);
  await seedBenchData(opened.db);
  await opened.db.execute(sql`
    update classes set name = (array[${sql.join(
      SEARCH_TITLES.map((title) => sql`${title}`),
      sql`, `,
    )}])[1 + id % ${SEARCH_TITLES.length}] || ' ' || id`);
  await opened.db.execute(sql`analyze`);
  await opened.close();
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sea-search-bench-'));
  const { child: api, base } = await startApiServer({ DATA_DIR: dataDir, READ_CACHE_MS: '0', ...env });
  try {
    for (const route of ROUTES) {
      const sample = await fetch(base + route);
      if (sample.status !== 200) throw new Error(`${route} answered ${sample.status}`);
      const found = ((await sample.json()) as { data: unknown[] }).data.length;
      const result = await load(base + route);
      rows.push({
        database: name,
        route: decodeURIComponent(route),
        'first page': String(found),
        'req/s': Math.round(result.requests.average).toLocaleString('en-US'),
        p50: `${result.latency.p50} ms`,
        p99: `${result.latency.p99} ms`,
        errors: String(result.errors + result.non2xx + result.timeouts),
      });
    }
  } finally {
    await stopProcess(api);
  }
}

function load(url: string): Promise<Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
}
