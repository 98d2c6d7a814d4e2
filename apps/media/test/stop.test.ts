import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { blockedPipe } from '@sea/service-kit/test/blocked-pipe';
import { freePort } from '@sea/service-kit/test/free-port';
import {
  answersHealth,
  spawnService,
  stopService,
  untilService,
} from '@sea/service-kit/test/service-process';
import { TEST_SECRET } from './test-media-server.ts';

const MEDIA_DIR = fileURLToPath(new URL('..', import.meta.url));
/** serve.ts's own limit for a stop, plus the time a process takes to go. */
const STOP_LIMIT_MS = 12_000;

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((cleanup) => cleanup()));

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
      const media = spawnService(
        MEDIA_DIR,
        {
          MEDIA_HOST: '127.0.0.1',
          MEDIA_PORT: String(port),
          MEDIA_SECRET: TEST_SECRET,
          // Nobody there: its reports fail and are retried meanwhile.
          API_URL: 'http://127.0.0.1:9',
          MEDIA_WORKERS: '1',
        },
        pipe.fd,
      );
      cleanups.push(() => media.child.kill('SIGKILL'));
      await untilService(media, () => answersHealth(`http://127.0.0.1:${port}`), 'healthy');
      if (readerGone) pipe.closeReader();

      const stop = await stopService(media, 'SIGTERM', STOP_LIMIT_MS + 5_000);
      expect(stop.ms, media.stderr()).toBeLessThan(STOP_LIMIT_MS);
      expect(stop.code, media.stderr()).toBe(0);
    },
    90_000,
  );
});
