import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { blockedPipe } from './blocked-pipe.ts';
import { TEST_SECRET } from './test-media-server.ts';

const MEDIA_DIR = fileURLToPath(new URL('..', import.meta.url));
/** main.ts's own limit for a stop, plus the time a process takes to go. */
const STOP_LIMIT_MS = 12_000;

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((cleanup) => cleanup()));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}

describe('stopping the media service', () => {
  it.each([
    { stdout: 'a full non-blocking pipe', blocking: false, readerGone: false },
    { stdout: 'a full blocking pipe', blocking: true, readerGone: false },
    { stdout: 'a pipe whose reader is gone (EPIPE)', blocking: false, readerGone: true },
  ])(
    'ends cleanly within the limit after SIGTERM when its stdout is $stdout',
    async ({ blocking, readerGone }) => {
      const pipe = blockedPipe({ blocking });
      cleanups.push(pipe.close);
      const port = await freePort();
      const child = spawn(process.execPath, ['src/main.ts'], {
        cwd: MEDIA_DIR,
        env: {
          ...process.env,
          MEDIA_HOST: '127.0.0.1',
          MEDIA_PORT: String(port),
          MEDIA_SECRET: TEST_SECRET,
          // Nobody there: its reports fail and are retried meanwhile.
          API_URL: 'http://127.0.0.1:9',
          MEDIA_WORKERS: '1',
        },
        stdio: ['ignore', pipe.fd, 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      let code: number | null = null;
      const exited = new Promise<number>((resolve) =>
        child.once('exit', (exitCode) => {
          code = exitCode;
          resolve(Date.now());
        }),
      );
      cleanups.push(() => child.kill('SIGKILL'));
      const deadline = Date.now() + 60_000;
      for (;;) {
        try {
          if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`not healthy:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (readerGone) pipe.closeReader();

      const stoppedAt = Date.now();
      child.kill('SIGTERM');
      const limit = new Promise<number>((resolve) =>
        setTimeout(() => resolve(Infinity), STOP_LIMIT_MS + 5_000),
      );
      expect((await Promise.race([exited, limit])) - stoppedAt, stderr).toBeLessThan(STOP_LIMIT_MS);
      expect(code, stderr).toBe(0);
    },
    90_000,
  );
});
