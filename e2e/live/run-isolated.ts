import { spawnSync } from 'node:child_process';

/**
 * Whether this process may create a network namespace (root, or unprivileged namespaces allowed).
 * SEA_LIVE_NO_NETNS=1 runs the journeys as a machine without that permission would.
 */
export const isolated =
  process.env.SEA_LIVE_NO_NETNS !== '1' && spawnSync('unshare', ['--net', 'true']).status === 0;
if (!isolated) {
  if (process.env.CI === 'true') throw new Error('CI=true but `unshare --net` is not allowed here');
  console.warn(
    '\n!!! The live journeys run WITHOUT their own network namespace (unshare --net is not allowed here):' +
      ' media on 127.0.0.1 only, Chromium without mDNS candidates !!!\n',
  );
}

/**
 * Runs a journey script (`script`, a file path), when it may, in its own network namespace with only loopback
 * up: Chromium's WebRTC then has no other interface to gather candidates from, so no media packet can leave
 * loopback. Otherwise it runs here, with the media service listening on and announcing 127.0.0.1 only (its
 * ICE-lite side only answers checks) and Chromium without mDNS: every packet goes to 127.0.0.1 or to this
 * machine's own addresses. Returns the script's `JOURNEY_RESULT {json}` line, parsed.
 */
export function runJourney(script: string, dist: string, timeoutMs: number): Record<string, unknown> {
  const options = {
    encoding: 'utf8' as const,
    env: { ...process.env, WEB_DIST: dist, SEA_NETNS: isolated ? '1' : '0' },
    timeout: timeoutMs,
    maxBuffer: 16 * 1024 * 1024,
  };
  const run = isolated
    ? spawnSync(
        'unshare',
        ['--net', 'sh', '-c', 'ip link set lo up && exec "$0" "$1"', process.execPath, script],
        options,
      )
    : spawnSync(process.execPath, [script], options);
  const line = run.stdout.split('\n').find((l) => l.startsWith('JOURNEY_RESULT '));
  if (!line) throw new Error(`the journey printed no result:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line.slice('JOURNEY_RESULT '.length)) as Record<string, unknown>;
}
