// `npm start`: builds the web app and the services' bundles (build-services.ts), then runs the API server and
// the media service from their bundles on their embedded defaults (PGlite, dev login, local uploads) until
// Ctrl+C or SIGTERM. It also turns demo data on (the server alone defaults to off) so a newcomer sees a living
// catalogue; DEMO_DATA=false keeps it off. The addresses both services must agree on are derived from PORT
// (platform-env.ts). `--no-build` runs what was built last.
//
// Supervision: a service that dies on its own (a crash, a kill) is started again after a backoff (1 s, then
// doubling up to 30 s; back to 1 s once a run lasted a minute), and the other goes on serving meanwhile: the
// API server keeps answering while the media service comes back, and marks its classes not live within
// seconds. Only Ctrl+C or a signal to this process stops the platform.
//
// Stopping: the media service first (its rooms close and the API server hears it, so no class stays live),
// then the API server; each gets STOP_GRACE_MS before it is killed, and this process exits only once both are
// gone. The services run in their own process group (a terminal's Ctrl+C reaches this process alone, which
// stops them in that order) and hold an IPC channel to this process: if it dies, even by SIGKILL, they stop
// by themselves, so nothing is ever left running.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { platformEnv } from './platform-env.ts';
import { SERVICE_ENTRIES } from './service-entries.ts';
import { BUNDLE_NODE_FLAGS, SERVICE_NODE_FLAGS } from './service-flags.ts';
import { prettyLogs } from './pretty-logs.ts';

/** How long a service may take to stop before it is killed (each stops itself within 10 s). */
const STOP_GRACE_MS = 12_000;
const HEALTH_TIMEOUT_MS = 180_000;
/** The first wait before a service that died is started again; doubled after each quick death. */
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** A run this long counts as healthy: the next death waits {@link RESTART_FIRST_MS} again. */
const HEALTHY_RUN_MS = 60_000;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { env, warnings } = platformEnv(process.env, root);
for (const warning of warnings) console.warn(`[start] ${warning}`);
const build = !process.argv.includes('--no-build');
// A person in a terminal reads the services' log lines pretty-printed; anything else (a pipe, a file, a log
// collector) gets them as they are: one JSON object per line.
const pretty = process.stdout.isTTY ? await prettyLogs() : null;

type Service = { name: string; script: string; child: ChildProcess; backoffMs: number };
const services: Service[] = [];
let builder: ChildProcess | null = null;
let stopping = false;
const restarts = new Set<NodeJS.Timeout>();

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

function spawnService(script: string): ChildProcess {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...BUNDLE_NODE_FLAGS, script], {
    cwd: root,
    env,
    stdio: ['ignore', pretty ? 'pipe' : 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  if (pretty) child.stdout?.pipe(pretty, { end: false });
  return child;
}

function run(name: string, script: string): void {
  const service: Service = { name, script, child: spawnService(script), backoffMs: RESTART_FIRST_MS };
  services.push(service);
  watch(service);
}

/** Starts the service again after its backoff whenever it dies on its own. */
function watch(service: Service): void {
  const startedAt = Date.now();
  service.child.once('exit', (code, signal) => {
    if (stopping) return;
    if (Date.now() - startedAt >= HEALTHY_RUN_MS) service.backoffMs = RESTART_FIRST_MS;
    const wait = service.backoffMs;
    service.backoffMs = Math.min(wait * 2, RESTART_MAX_MS);
    console.error(
      `[start] the ${service.name} stopped (${signal ?? code}); starting it again in ${wait / 1000} s.`,
    );
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (stopping) return;
      service.child = spawnService(service.script);
      watch(service);
    }, wait);
    restarts.add(timer);
  });
}

/** SIGTERM, then SIGKILL after the grace period; resolves once the process is gone. */
async function end({ name, child }: Service): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    console.error(`[start] the ${name} did not stop within ${STOP_GRACE_MS / 1000} s; killing it.`);
    child.kill('SIGKILL');
  }, STOP_GRACE_MS);
  await exited(child);
  clearTimeout(timer);
}

/** Stops the services, the latest started first, and exits once all are gone. */
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const timer of restarts) clearTimeout(timer);
  builder?.kill('SIGTERM');
  for (const service of [...services].reverse()) await end(service);
  if (builder) await exited(builder);
  process.exit(code);
}

async function waitForHealth(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline && !stopping) {
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet: keep polling until the deadline.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (!stopping) throw new Error('the API server did not become healthy in time');
}

let interrupts = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupts += 1;
    if (interrupts === 1) {
      console.log('[start] stopping: the media service, then the API server (Ctrl+C again kills them now)');
      void stop(0);
      return;
    }
    for (const { child } of services) child.kill('SIGKILL');
  });
}

/** Runs a build in a process of its own (this one stays small); false if we are stopping. A failure exits. */
async function runBuild(what: string, args: string[], cwd: string): Promise<boolean> {
  builder = spawn(process.execPath, args, { cwd, env, stdio: 'inherit' });
  const [code] = await new Promise<[number | null]>((resolve) => builder?.once('exit', (c) => resolve([c])));
  builder = null;
  if (stopping) return false;
  if (code === 0) return true;
  console.error(`[start] the ${what} build failed.`);
  process.exit(code ?? 1);
}

async function main(): Promise<void> {
  if (build) {
    const vite = path.join(root, 'node_modules/vite/bin/vite.js');
    if (!(await runBuild('web', [vite, 'build'], path.join(root, 'apps/web')))) return;
    const bundle = path.join(root, 'scripts/build-services.ts');
    if (!(await runBuild("services'", [bundle], root))) return;
  }
  const missing = Object.values(SERVICE_ENTRIES).filter((entry) => !fs.existsSync(path.join(root, entry)));
  if (missing.length > 0) {
    console.error(`[start] ${missing.join(', ')} not built yet: run npm start without --no-build once.`);
    process.exit(1);
  }
  run('API server', SERVICE_ENTRIES.server);
  try {
    await waitForHealth(env.API_URL ?? '', Date.now() + HEALTH_TIMEOUT_MS);
  } catch (error) {
    console.error(`[start] ${(error as Error).message}`);
    await stop(1);
    return;
  }
  if (stopping) return;
  run('media service', SERVICE_ENTRIES.media);
  console.log(`[start] 바다학원 is running: ${env.PUBLIC_URL}`);
}

void main();
