/**
 * Mixed traffic with pathological searches (issue 38): ordinary requests (the list's first page, a class, the
 * top ten, /health) measured alone, then again while other connections search for five one-syllable words
 * found in every class ('바 다 강 의 설') and for a word found in every class ('바다'), on the 10 000
 * classes of seed-bench-data.ts, on PostgreSQL and on PGlite. The read cache is off (READ_CACHE_MS=0): every
 * request reaches the database. Prints p50/p99 per route and phase, and the load average.
 * Run: npm exec -- node bench/api/mixed-search-bench.ts   (env: DATABASE_URL, BENCH_DURATION_S (10))
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import type { DatabaseConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/open-database.ts';
import { createTestDatabase } from '../../apps/server/test/helper.ts';
import { startApiServer, stopProcess } from './processes.ts';
import { BENCH_CLASSES, seedBenchData } from './seed-bench-data.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
/** Route and connections of the ordinary traffic. */
const ORDINARY: Array<[string, number]> = [
  ['/api/classes?page=0', 4],
  ['/api/classes/5000', 4],
  ['/api/classes?target=topten', 2],
  ['/health', 1],
];
/** The pathological searches, and their connections. */
const PATHOLOGICAL: Array<[string, number]> = [
  [`/api/classes?q=${encodeURIComponent('바 다 강 의 설')}`, 2],
  [`/api/classes?q=${encodeURIComponent('바다')}`, 4],
];

const rows: Record<string, string>[] = [];
const postgres = await createTestDatabase();
const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-mixed-bench-'));
const loadBefore = os.loadavg().map((n) => n.toFixed(1));
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
console.log(
  `\n${BENCH_CLASSES} classes, ${DURATION_S} s per phase, ${os.cpus().length} CPUs, ` +
    `load average before ${loadBefore.join(' ')}, after ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
);
console.table(rows);

async function run(name: string, config: DatabaseConfig, env: Record<string, string>): Promise<void> {
  const opened = await openDatabase(config);
  await seedBenchData(opened.db);
  await opened.close();
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sea-mixed-bench-'));
  const { child: api, base } = await startApiServer({ DATA_DIR: dataDir, READ_CACHE_MS: '0', ...env });
  try {
    for (const [route] of [...ORDINARY, ...PATHOLOGICAL]) {
      const sample = await fetch(base + route);
      if (sample.status !== 200) throw new Error(`${route} answered ${sample.status}`);
    }
    await phase(name, 'alone', base, ORDINARY);
    await phase(name, 'mixed', base, [...ORDINARY, ...PATHOLOGICAL]);
  } finally {
    await stopProcess(api);
  }
}

/** Loads every route at once, each with its own connections, and adds a row per route. */
async function phase(
  database: string,
  label: string,
  base: string,
  routes: Array<[string, number]>,
): Promise<void> {
  const load1 = os.loadavg()[0]?.toFixed(1) ?? '';
  const results = await Promise.all(
    routes.map(([route, connections]) =>
      autocannon({ url: base + route, connections, duration: DURATION_S }),
    ),
  );
  routes.forEach(([route, connections], index) => {
    const result = results[index] as Result;
    rows.push({
      database,
      phase: label,
      route: decodeURIComponent(route),
      connections: String(connections),
      'req/s': Math.round(result.requests.average).toLocaleString('en-US'),
      p50: `${result.latency.p50} ms`,
      p99: `${result.latency.p99} ms`,
      max: `${result.latency.max} ms`,
      errors: String(result.errors + result.non2xx + result.timeouts),
      load1,
    });
  });
}
