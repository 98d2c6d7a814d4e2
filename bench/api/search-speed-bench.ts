/**
 * Search as you type (issue 34, item 3): p50/p95 of `GET /api/classes?q=` and `GET /api/search/suggest?q=` for
 * one- and two-syllable words, partial words and what people type (no spaces, 초성, typos, English names), one
 * request at a time, on PostgreSQL with 100 000 classes and on PGlite with 10 000, the read cache off.
 * Run: npm exec -- node bench/api/search-speed-bench.ts
 * (env: DATABASE_URL; BENCH_REQUESTS (40 per query); BENCH_POSTGRES_URL: a database this bench seeded before,
 * to measure again without seeding 100 000 classes anew)
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/open-database.ts';
import { createTestDatabase } from '../../apps/server/test/helper.ts';
import { startApiServer, stopProcess } from './processes.ts';
import { seedBenchData } from './seed-bench-data.ts';
import { applySearchTitles } from './search-titles.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const QUERIES = [
  '바',
  '수채',
  '드로',
  '영어회화',
  '아이패드드로잉',
  'ㅌㅇㅅ',
  '파이선',
  '재태크',
  'typescript',
];
const rows: Record<string, string>[] = [];

const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-search-speed-'));
const reused = process.env.BENCH_POSTGRES_URL;
const postgres = reused === undefined ? await createTestDatabase() : undefined;
try {
  const url = reused ?? postgres?.url ?? '';
  if (reused === undefined) await seed({ kind: 'postgres', url }, 100_000);
  await run('PostgreSQL, 100 000', { DATA_DIR: pgliteDir, DATABASE_URL: url });
  await seed({ kind: 'pglite', dir: path.join(pgliteDir, 'pglite') }, 10_000);
  // DATABASE_URL blanked: the server would otherwise take the (inherited) PostgreSQL address over PGlite.
  await run('PGlite, 10 000', { DATA_DIR: pgliteDir, DATABASE_URL: '' });
} finally {
  await postgres?.drop();
  fs.rmSync(pgliteDir, { recursive: true, force: true });
}
console.log(`\n${REQUESTS} requests per query, one at a time, ${os.cpus().length} CPUs`);
console.table(rows);

async function seed(config: DatabaseConfig, classes: number): Promise<void> {
  const opened = await openDatabase(config);
  try {
    await seedBenchData(opened.db, classes);
    await applySearchTitles(opened.db);
  } finally {
    await opened.close();
  }
}

async function run(database: string, env: Record<string, string>): Promise<void> {
  const { child, base } = await startApiServer({ READ_CACHE_MS: '0', ...env });
  try {
    for (const [index, q] of QUERIES.entries()) {
      // Each query from its own loopback address: suggestions are limited to 300 a minute per address.
      const agent = new http.Agent({ keepAlive: true, localAddress: `127.0.0.${10 + index}` });
      for (const route of ['/api/classes', '/api/search/suggest']) {
        const url = `${base}${route}?q=${encodeURIComponent(q)}`;
        const sample = await get(url, agent);
        if (sample.status !== 200) throw new Error(`${url} answered ${sample.status}`);
        const body = JSON.parse(sample.body) as { data: unknown[] | { classes: unknown[] }; total?: number };
        const found = Array.isArray(body.data) ? String(body.total) : `${body.data.classes.length} classes`;
        const times: number[] = [];
        for (let i = 0; i < REQUESTS; i += 1) {
          const started = performance.now();
          const { status } = await get(url, agent);
          if (status !== 200) throw new Error(`${url} answered ${status}`);
          times.push(performance.now() - started);
        }
        times.sort((a, b) => a - b);
        const at = (p: number) =>
          `${(times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0).toFixed(1)} ms`;
        rows.push({
          database,
          route,
          q,
          found,
          p50: at(0.5),
          p95: at(0.95),
          load: os.loadavg()[0]?.toFixed(1) ?? '',
        });
      }
      agent.destroy();
    }
  } finally {
    await stopProcess(child);
  }
}

function get(url: string, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}
