import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
import { createTestDatabase, postgresAvailable } from './helper.ts';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
/** serve.ts's own limit for a stop (SHUTDOWN_TIMEOUT_MS), plus the time a process takes to go. */
const STOP_LIMIT_MS = 12_000;

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});
// PostgreSQL when it is there: a fresh PGlite folder costs a minute of initdb on a busy machine.
const postgresUp = await postgresAvailable();

/** The stopped server's database: a fresh PostgreSQL database, else PGlite in its data folder. */
async function databaseEnv(): Promise<NodeJS.ProcessEnv> {
  if (!postgresUp) return { DATABASE_URL: '' };
  const database = await createTestDatabase({ migrated: true });
  cleanups.push(database.drop);
  return { DATABASE_URL: database.url };
}

// A process test: the database plays no part, so it runs in the server project only.
describe.skipIf(process.env.TEST_DATABASE === 'postgres')('stopping the API server', () => {
  it.each([
    { stdout: 'a full non-blocking pipe', blocking: false, readerGone: false },
    { stdout: 'a full blocking pipe', blocking: true, readerGone: false },
    { stdout: 'a pipe whose reader is gone (EPIPE)', blocking: false, readerGone: true },
  ])(
    'ends within the limit after SIGTERM when its stdout is $stdout',
    async ({ blocking, readerGone }) => {
      const pipe = blockedPipe({ blocking });
      cleanups.push(pipe.close);
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-stop-'));
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      const port = await freePort();
      const server = spawnService(
        SERVER_DIR,
        {
          ...(await databaseEnv()),
          HOST: '127.0.0.1',
          PORT: String(port),
          DATA_DIR: dataDir,
          DEMO_DATA: 'false',
          LOG_LEVEL: 'info',
        },
        pipe.fd,
      );
      cleanups.push(() => server.child.kill('SIGKILL'));
      const url = `http://127.0.0.1:${port}`;
      await untilService(server, () => answersHealth(url), 'healthy', {
        timeoutMs: 120_000,
        intervalMs: 200,
      });
      // Requests are logged: lines pile up behind the full pipe.
      for (let i = 0; i < 200; i += 1) await (await fetch(`${url}/api/categories`)).arrayBuffer();
      if (readerGone) pipe.closeReader();

      const stop = await stopService(server, 'SIGTERM', STOP_LIMIT_MS + 5_000);
      expect(stop.ms, server.stderr()).toBeLessThan(STOP_LIMIT_MS);
      // A clean stop, not serve.ts's fallback (which exits with 1).
      expect(stop.code, server.stderr()).toBe(0);
    },
    180_000,
  );
});
