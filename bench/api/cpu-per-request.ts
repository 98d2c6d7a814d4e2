/**
 * CPU time per request of the API server and of the bare node:http server answering the same bytes, for the
 * same three routes as run-api-bench.ts. Throughput on a shared 2-core machine moves with whatever else runs;
 * the CPU a server process spends per answered request moves much less, so this is the figure to compare
 * while changing the server. Each server runs in its own process; its CPU (user + system, from /proc) is read
 * before and after a fixed number of requests sent by autocannon from this process.
 * Run: npm exec -- node bench/api/cpu-per-request.ts   (env: DATABASE_URL, BENCH_REQUESTS (30000), BENCH_CONNECTIONS)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { openDatabase } from '../../apps/server/src/db/open-database.ts';
import { createTestDatabase } from '../../apps/server/test/helper.ts';
import { freePort } from '@sea/service-kit/test/free-port';
import { startApiServer, startProcess, stopProcess } from './processes.ts';
import { BENCH_CLASSES, seedBenchData } from './seed-bench-data.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const CLOCK_TICKS_PER_S = 100;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** User + system CPU of a process so far, in milliseconds (Linux /proc). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at state; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

/** Microseconds of the process's CPU per request, over REQUESTS requests (after a warm-up). */
async function measure(pid: number, url: string): Promise<{ serverUs: number; generatorUs: number }> {
  await autocannon({ url, connections: CONNECTIONS, amount: Math.min(5_000, REQUESTS) });
  const before = cpuMs(pid);
  const generatorBefore = process.cpuUsage();
  const result = await autocannon({ url, connections: CONNECTIONS, amount: REQUESTS });
  const generator = process.cpuUsage(generatorBefore);
  if (result.non2xx + result.errors > 0) throw new Error(`${url}: ${result.non2xx + result.errors} failures`);
  return {
    serverUs: ((cpuMs(pid) - before) * 1000) / REQUESTS,
    generatorUs: (generator.user + generator.system) / REQUESTS,
  };
}

const database = await createTestDatabase();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-bench-'));
try {
  const opened = await openDatabase({ kind: 'postgres', url: database.url });
  await seedBenchData(opened.db);
  await opened.close();
  const { child: api, base } = await startApiServer({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  const rows: Record<string, string>[] = [];
  try {
    for (const route of [
      '/api/classes?page=0',
      '/api/classes?target=topten',
      `/api/classes/${BENCH_CLASSES / 2}`,
    ]) {
      const sample = await fetch(base + route);
      const bodyFile = path.join(dataDir, 'body.json');
      fs.writeFileSync(bodyFile, Buffer.from(await sample.arrayBuffer()));
      const barePort = await freePort();
      const bareUrl = `http://127.0.0.1:${barePort}${route}`;
      const bare = await startProcess([here('bare-server.ts'), bodyFile, String(barePort)], {}, bareUrl);
      const server = await measure(api.pid ?? 0, base + route);
      const ceiling = await measure(bare.pid ?? 0, bareUrl);
      await stopProcess(bare);
      rows.push({
        route,
        'API µs/req': server.serverUs.toFixed(1),
        'bare µs/req': ceiling.serverUs.toFixed(1),
        'API/bare': (server.serverUs / ceiling.serverUs).toFixed(2),
        'generator µs/req (API, bare)': `${server.generatorUs.toFixed(1)}, ${ceiling.generatorUs.toFixed(1)}`,
      });
    }
  } finally {
    await stopProcess(api);
  }
  console.log(
    `\n${REQUESTS} requests per route, ${CONNECTIONS} connections, node ${process.version}, load ${os.loadavg()[0]?.toFixed(1)}`,
  );
  console.table(rows);
} finally {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
