import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@sea/service-kit/test/free-port';
import { SERVICE_NODE_FLAGS } from '../../scripts/service-flags.ts';

/** Starts `node <args>` and waits (bounded) until `url` answers 200. */
export async function startProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  url: string,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).status === 200) return child;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not answer ${url} in time`);
}

/** Stops a child process and waits for it to exit. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Starts the real API server (with `npm start`'s Node flags; from its sources, or as `main` says: flags and file) on a free
 * loopback port without demo data, logging at warn, with `env` added (its database and data folder, say), and
 * waits until its /health answers.
 */
export async function startApiServer(
  env: NodeJS.ProcessEnv,
  main: string[] = [fileURLToPath(new URL('../../apps/server/src/main.ts', import.meta.url))],
): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = await startProcess(
    [...SERVICE_NODE_FLAGS, ...main],
    { HOST: '127.0.0.1', PORT: String(port), DEMO_DATA: 'false', LOG_LEVEL: 'warn', ...env },
    `${base}/health`,
  );
  return { child, base };
}
