import { spawn, type ChildProcess } from 'node:child_process';

/** A service's own entry point (`src/main.ts`) running as a child process, as a test started it. */
export type ServiceProcess = {
  child: ChildProcess;
  /** What the service has written to stderr so far (for the message of a failed expectation). */
  stderr(): string;
  /** Resolves when the service exits: its exit code, and when (`Date.now()`). */
  exited: Promise<{ code: number | null; at: number }>;
};

/**
 * Starts `node src/main.ts` in `cwd` with the test's environment and `env` over it; its stdout goes to
 * `stdout` (a file descriptor, e.g. a blocked pipe's, or 'ignore'), its stderr is kept. The caller kills it
 * at the end (`child.kill('SIGKILL')` is harmless once it has exited).
 */
export function spawnService(
  cwd: string,
  env: NodeJS.ProcessEnv,
  stdout: number | 'ignore' = 'ignore',
): ServiceProcess {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: Date.now() })),
  );
  return { child, stderr: () => stderr, exited };
}

/**
 * Polls `check` every `intervalMs` until it holds. Throws, with the service's stderr, once the service has
 * exited or `timeoutMs` has passed: `what` names what was awaited ("healthy", "registered").
 */
export async function untilService(
  service: ServiceProcess,
  check: () => Promise<boolean>,
  what: string,
  { timeoutMs = 60_000, intervalMs = 100 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline || service.child.exitCode !== null) {
      throw new Error(`not ${what}:\n${service.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Whether `${url}/health` answers 200 now (false while nothing listens). */
export function answersHealth(url: string): Promise<boolean> {
  return fetch(`${url}/health`).then(
    (response) => response.ok,
    () => false,
  );
}

/**
 * Sends `signal` and waits for the service to exit, at most `waitMs`: how long it took (Infinity when it did
 * not exit in time) and its exit code ('late' then).
 */
export async function stopService(
  service: ServiceProcess,
  signal: NodeJS.Signals,
  waitMs: number,
): Promise<{ ms: number; code: number | null | 'late' }> {
  const stoppedAt = Date.now();
  service.child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), waitMs)));
  const exit = await Promise.race([service.exited, late]);
  clearTimeout(timer);
  return exit === 'late' ? { ms: Infinity, code: 'late' } : { ms: exit.at - stoppedAt, code: exit.code };
}
