/**
 * API benchmark: GET /api/classes?page=0, ?target=topten and /api/classes/{id} on PostgreSQL with 10 000
 * classes and 100 000 enrolments, each against a bare node:http server answering the same bytes.
 * Run: npm exec -- node bench/api/run-api-bench.ts   (DATABASE_URL, BENCH_DURATION_S, BENCH_CONNECTIONS)
 */
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon, { type Result } from 'autocannon';
import { buildApp } from '../../apps/server/src/app.ts';
import { createTestDatabase, testConfig } from '../../apps/server/test/helper.ts';
import { startBareServer } from './bare-server.ts';
import { BENCH_CLASSES, BENCH_ENROLMENTS, seedBenchData } from './seed-bench-data.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);

const database = await createTestDatabase();
const app = await buildApp(
  testConfig({
    database: { kind: 'postgres', url: database.url },
    uploadDir: path.join(os.tmpdir(), 'sea-bench-uploads'),
    // As in production (READ_CACHE_MS default).
    readCacheMs: 1000,
  }),
  { logger: false },
);
try {
  const started = Date.now();
  await seedBenchData(app.db);
  console.log(
    `seeded ${BENCH_CLASSES} classes, ${BENCH_ENROLMENTS} enrolments in ${Date.now() - started} ms`,
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const routes = ['/api/classes?page=0', '/api/classes?target=topten', `/api/classes/${BENCH_CLASSES / 2}`];
  const rows: string[][] = [];
  for (const route of routes) {
    const sample = await fetch(base + route);
    if (sample.status !== 200) throw new Error(`${route} answered ${sample.status}`);
    const body = Buffer.from(await sample.arrayBuffer());
    const bare = await startBareServer(body);
    const server = await load(base + route);
    const ceiling = await load(bare.url + route);
    await bare.close();
    rows.push([
      route,
      `${body.length} B`,
      rate(server),
      `${server.latency.p99} ms`,
      rate(ceiling),
      `${ceiling.latency.p99} ms`,
      (server.requests.average / ceiling.requests.average).toFixed(2),
      String(server.errors + server.non2xx + server.timeouts),
    ]);
  }
  const header = ['route', 'body', 'API req/s', 'API p99', 'bare req/s', 'bare p99', 'ratio', 'errors'];
  console.log(
    `\n${CONNECTIONS} connections, ${DURATION_S} s per run, node ${process.version}, ${os.cpus().length} CPUs`,
  );
  console.table(rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]]))));
} finally {
  await app.close();
  await database.drop();
}

function load(url: string): Promise<Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
}

function rate(result: Result): string {
  return Math.round(result.requests.average).toLocaleString('en-US');
}
