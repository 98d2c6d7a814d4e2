import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { until } from './test-media-server.ts';

const CHILD = fileURLToPath(new URL('./recording-child.ts', import.meta.url));

/**
 * Starts `recording-child.ts` (a media server recording a synthetic teacher into `dir`, with `args` after it)
 * and answers once it records, with its session's key; `cleanups` gets its kill.
 */
export async function startRecordingChild(
  dir: string,
  args: string[],
  cleanups: (() => unknown)[],
): Promise<{ child: ChildProcess; key: string }> {
  const child = spawn(process.execPath, [CHILD, dir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => child.kill('SIGKILL'));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until(() => /recording (\S+)/.test(output) || child.exitCode !== null, 30_000);
  const key = /recording (\S+)/.exec(output)?.[1];
  if (!key) throw new Error(output);
  return { child, key };
}

/** Kills the child as a crash does (SIGKILL) and waits until it is gone. */
export async function killChild(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
