/**
 * Idle memory of the services (issue 34, item 5): starts the API server on PGlite (`npm start`'s default), the
 * API server on PostgreSQL and the media service, each in its own process as `npm start` does, and prints
 * each one's resident memory (VmRSS from /proc/PID/status) once it answers /health and again after
 * IDLE_S seconds without a request, with the load average. The PGlite data folder is made before (a first
 * start's initdb and migrations are a one-off). Each round runs the three from their bundles (as `npm start`
 * and the systemd units do, `scripts/build-services.ts`) and from their TypeScript sources, in turn, the first
 * of the two alternating from round to round.
 * Run: npm exec -- node bench/api/idle-memory.ts   (env: DATABASE_URL, BENCH_IDLE_S (30), BENCH_ROUNDS (2))
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '@sea/service-kit/test/free-port';
import { openDatabase } from '../../apps/server/src/db/open-database.ts';
import { createTestDatabase } from '../../apps/server/test/helper.ts';
import { REPO_ROOT } from '../../harness/paths.ts';
import { buildServicesOnce } from '../../harness/service-build.ts';
import { BUNDLE_NODE_FLAGS, SERVICE_NODE_FLAGS } from '../../scripts/service-flags.ts';
import { startApiServer, startProcess, stopProcess } from './processes.ts';

const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SECRET = 'idle-memory-bench-secret-0123456789abcdef';
const rows: Record<string, string>[] = [];

const bundles = buildServicesOnce();
const ENTRIES = {
  bundles: { server: bundles.server, media: bundles.media, flags: BUNDLE_NODE_FLAGS },
  sources: { server: 'apps/server/src/main.ts', media: 'apps/media/src/main.ts', flags: [] },
};
type Variant = keyof typeof ENTRIES;

/** VmRSS of a process in MB, from /proc. */
function residentMb(pid: number | undefined): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB$/mu.exec(status)?.[1]);
  return Math.round(kb / 1024);
}

async function measure(round: number, variant: Variant, name: string, child: ChildProcess): Promise<void> {
  const started = residentMb(child.pid);
  await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
  rows.push({
    round: String(round),
    from: variant,
    process: name,
    'RSS after start': `${started} MB`,
    [`RSS after ${IDLE_S} s idle`]: `${residentMb(child.pid)} MB`,
    load: os.loadavg()[0]?.toFixed(1) ?? '',
  });
}

/** The three services from `variant`'s entries, idle at once: one wait for all. */
async function idleRound(round: number, variant: Variant, postgresUrl: string): Promise<void> {
  const entry = (file: string) => path.join(REPO_ROOT, file);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-idle-memory-'));
  const running: ChildProcess[] = [];
  try {
    // The data folder made and migrated first, as after `npm start`'s first run: the figures are a usual start's.
    await (await openDatabase({ kind: 'pglite', dir: path.join(dataDir, 'pglite') })).close();
    // DATABASE_URL blanked: an inherited one would take the server to PostgreSQL.
    const { flags } = ENTRIES[variant];
    const server = entry(ENTRIES[variant].server);
    const pglite = await startApiServer({ DATA_DIR: dataDir, DATABASE_URL: '', MEDIA_SECRET: SECRET }, [
      ...flags,
      server,
    ]);
    running.push(pglite.child);
    const mediaPort = await freePort();
    const media = await startProcess(
      [...SERVICE_NODE_FLAGS, ...flags, entry(ENTRIES[variant].media)],
      {
        DATA_DIR: dataDir,
        MEDIA_SECRET: SECRET,
        MEDIA_PORT: String(mediaPort),
        API_URL: pglite.base,
        MEDIA_HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      `http://127.0.0.1:${mediaPort}/health`,
    );
    running.push(media);
    const onPostgres = await startApiServer(
      {
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sea-idle-memory-')),
        DATABASE_URL: postgresUrl,
        MEDIA_SECRET: SECRET,
      },
      [...flags, server],
    );
    running.push(onPostgres.child);
    await Promise.all([
      measure(round, variant, 'API server, PGlite', pglite.child),
      measure(round, variant, 'API server, PostgreSQL', onPostgres.child),
      measure(round, variant, 'media service', media),
    ]);
  } finally {
    for (const child of running.reverse()) await stopProcess(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const postgres = await createTestDatabase({ migrated: true });
try {
  for (let round = 1; round <= ROUNDS; round += 1) {
    const order: Variant[] = round % 2 === 1 ? ['bundles', 'sources'] : ['sources', 'bundles'];
    for (const variant of order) await idleRound(round, variant, postgres.url);
  }
} finally {
  await postgres.drop();
}
console.log(
  `\n${os.cpus().length} CPUs, Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.table(rows);
