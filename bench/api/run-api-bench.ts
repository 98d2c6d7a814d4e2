/**
 * API benchmark: GET /api/classes?page=0, ?target=topten and /api/classes/{id} on PostgreSQL with 10 000
 * classes and 100 000 enrolments. The API server (node apps/server/src/main.ts) and a bare node:http server
 * answering the same bytes each run in their own process; autocannon loads them in turn from this one.
 * Run: npm exec -- node bench/api/run-api-bench.ts   (env: DATABASE_URL, BENCH_DURATION_S, BENCH_CONNECTIONS)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import { openDatabase } from '../../apps/server/src/db/open-database.ts';
import { createTestDatabase } from '../../apps/server/test/helper.ts';
import { freePort } from '@sea/service-kit/test/free-port';
import { startApiServer, startProcess, stopProcess } from './processes.ts';
import { BENCH_CLASSES, BENCH_ENROLMENTS, seedBenchData } from './seed-bench-data.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

const database = await createTestDatabase();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-bench-'));
try {
  const opened = await openDatabase({ kind: 'postgres', url: database.url });
  const started = Date.now();
  await seedBenchData(opened.db);
  await opened.close();
  console.log(
    `seeded ${BENCH_CLASSES} classes, ${BENCH_ENROLMENTS} enrolments in ${Date.now() - started} ms`,
  );

  // The server as deployed: request logging at warn, the default read cache (READ_CACHE_MS=1000).
  const { child: api, base } = await startApiServer({ DATABASE_URL: database.url, DATA_DIR: dataDir });
  const rows: Record<string, string>[] = [];
  try {
    for (const route of [
      '/api/classes?page=0',
      '/api/classes?target=topten',
      `/api/classes/${BENCH_CLASSES / 2}`,
    ]) {
      const sample = await fetch(base + route);
      if (sample.status !== 200) throw new Error(`${route} answered ${sample.status}`);
      const bodyFile = path.join(dataDir, 'body.json');
      fs.writeFileSync(bodyFile, Buffer.from(await sample.arrayBuffer()));
      const barePort = await freePort();
      const bareUrl = `http://127.0.0.1:${barePort}${route}`;
      const bare = await startProcess([here('bare-server.ts'), bodyFile, String(barePort)], {}, bareUrl);
      const server = await load(base + route);
      const ceiling = await load(bareUrl);
      await stopProcess(bare);
      rows.push({
        route,
        body: `${fs.statSync(bodyFile).size} B`,
        'API req/s': rate(server),
        'API p99': `${server.latency.p99} ms`,
        'bare req/s': rate(ceiling),
        'bare p99': `${ceiling.latency.p99} ms`,
        ratio: (server.requests.average / ceiling.requests.average).toFixed(2),
        errors: String(server.errors + server.non2xx + server.timeouts),
      });
    }
  } finally {
    await stopProcess(api);
  }
  const load1 = os.loadavg()[0]?.toFixed(1);
  console.log(
    `\n${CONNECTIONS} connections, ${DURATION_S} s per run, node ${process.version}, ${os.cpus().length} CPUs, load ${load1}`,
  );
  console.table(rows);
} finally {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function load(url: string): Promise<Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
}

function rate(result: Result): string {
  return Math.round(result.requests.average).toLocaleString('en-US');
}
