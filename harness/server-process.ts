import { spawn } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@sea/service-kit/test/free-port';
import { answersHealth } from '@sea/service-kit/test/service-process';
import { migratedPgliteFolder } from '../apps/server/test/pglite-template.ts';
import { REPO_ROOT } from './paths.ts';

export type RunningServer = {
  baseUrl: string;
  stop: () => Promise<void>;
  /** Sends the process a signal (a crash: `SIGKILL`); `stop()` still waits for it and cleans up. */
  kill: (signal: NodeJS.Signals) => void;
  logs: () => string;
};

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await answersHealth(baseUrl))) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`the server did not become healthy within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** How a service's process is started: Node's `spawn`, or one that runs it elsewhere (a test's host). */
export type Launch = (command: string, args: string[], options: SpawnOptions) => ChildProcess;

/**
 * Runs a service of the repository (`script`, relative to its root) with exactly `env` (plus PATH and HOME)
 * until its `/health` at `baseUrl` answers; `stop()` ends it (SIGTERM, then SIGKILL after 10 s) and runs
 * `cleanup`. `launch` starts the process (the two-host test's runs it in a host's namespace).
 */
export async function startService(
  script: string,
  baseUrl: string,
  env: NodeJS.ProcessEnv,
  cleanup: () => void = () => {},
  launch: Launch = spawn,
): Promise<RunningServer> {
  const child = launch(process.execPath, [path.join(REPO_ROOT, script)], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    // A process ended by a signal (`kill`) has a signalCode and no exitCode: it has exited already.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    cleanup();
  };
  try {
    await waitForHealth(baseUrl, child, 90_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output}`, { cause: error });
  }
  return { baseUrl, stop, kill: (signal) => child.kill(signal), logs: () => output };
}

/**
 * Starts the real API server (`apps/server/src/main.ts`) on a free loopback port (or `port`) with a fresh data
 * folder (PGlite, from the migrated template unless `env` names a `DATABASE_URL`; uploads), no demo data (unless
 * asked, e.g. by benchmarks) and the dev login, serving the given web build; `env` adds or overrides variables
 * (the media service's address, say). A `dataDir` of the caller's is used as it is (filled from the template
 * when it has no database yet) and kept after `stop()`, for a journey that restarts its server on one folder.
 */
export async function startServer(
  webDist: string,
  options: { demoData?: boolean; env?: NodeJS.ProcessEnv; dataDir?: string; port?: number } = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sea-e2e-data-'));
  const fresh = !fs.existsSync(path.join(dataDir, 'pglite'));
  if (!options.env?.DATABASE_URL && fresh) await migratedPgliteFolder(dataDir);
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    DEMO_DATA: options.demoData ? 'true' : 'false',
    // The journeys open dozens of classes from one account; the limits have their own tests.
    WRITE_LIMITS: 'off',
    WEB_DIST: webDist,
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const cleanup = () => {
    if (options.dataDir === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return startService('apps/server/src/main.ts', baseUrl, env, cleanup);
}
