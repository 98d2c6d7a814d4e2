import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Debian's Chromium (CHROMIUM_PATH elsewhere), for the live-media checks in real browsers. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Whether to run them: Chromium is there, or CI=true requires them (and they fail without it). */
export const chromiumChecked = fs.existsSync(CHROMIUM) || process.env.CI === 'true';

/** Says, loudly, that `check` (e.g. "the Chromium live-media test") is skipped when it is. */
export function warnIfSkipped(check: string): void {
  if (!chromiumChecked) console.warn(`SKIPPED: ${check} needs ${CHROMIUM}`);
}

/** Whether this process may create a network namespace (root, or unprivileged namespaces allowed). */
export const isolated = spawnSync('unshare', ['--net', 'true']).status === 0;

/**
 * Runs a harness script of this folder (`run-harness.ts`, `run-edge-harness.ts`) in its own loopback-only
 * network namespace when this process may create one (there with SEA_NETNS=1), else on this machine's
 * loopback, for at most `timeoutMs`; the object of the line it prints, `HARNESS_RESULT {...}`.
 */
export function runHarness(script: string, timeoutMs: number): Record<string, unknown> {
  const file = fileURLToPath(new URL(script, import.meta.url));
  const node = process.execPath;
  const command = isolated ? 'unshare' : node;
  const args = isolated
    ? ['--net', 'sh', '-c', 'ip link set lo up && SEA_NETNS=1 exec "$0" "$1"', node, file]
    : [file];
  const run = spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
  const line = run.stdout.split('\n').find((l) => l.startsWith('HARNESS_RESULT '));
  if (!line) throw new Error(`harness printed no result:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line.slice('HARNESS_RESULT '.length)) as Record<string, unknown>;
}
