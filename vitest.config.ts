import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { moduleMockFiles, storageTestFiles } from './harness/suite-files.ts';

// One runner for the whole repository. The server suite runs against PGlite always, and a second time
// against PostgreSQL when DATABASE_URL is set (required when CI=true).
const postgres = Boolean(process.env.DATABASE_URL) || process.env.CI === 'true';
// The server's files whose subject is SQL or storage (harness/suite-files.ts says how they are found): with
// PostgreSQL configured they run a second time on it; every other file runs once, on PGlite.
const STORAGE_FILES = postgres ? storageTestFiles('apps/server') : [];
// The web app's files that replace a module with vi.mock: they need a module graph of their own.
const WEB_MOCK_FILES = moduleMockFiles('apps/web');

// ISOLATION: the server's and the web app's files run one after another in each worker without a fresh module
// graph per file. Importing the server (Fastify, Drizzle, pino, sharp, the routes) or the web app (React, jsdom)
// took 4-6 s of CPU per file, over half of those projects' time; the files build their own apps and clean up
// after themselves, so what they share is only code. A file that needs module state of its own resets it; a
// web file that mocks a module runs in the isolated project web-mocks.

// GROUPS: `npm test` is one `vitest run` in three groups, one after the other (`sequence.groupOrder`), each
// with its own number of workers, as measured on this 2-core machine kind (README, the suite's time):
//   1. the browser journeys (e2e), three at a time: they wait more than they compute (two of them alone used
//      0.8 of the two cores); at three the CPU was 95 % busy and every check passed;
//   2. the unit and service files (server, server-postgres, media, web, scripts), three at a time: they wait on
//      sockets, timers and child processes; at two the CPU was 22 % idle and the group took 372 s, at three
//      10 % and 316 s;
//   3. the files whose checks are timed in Chromium or through coturn (deploy, live), one at a time:
//      two at a time, the replay journey's chat was 1.3 s off its moment (1 s allowed), the live journey
//      decoded 13.5 frames a second (15 asserted), and the pair took as long as one after the other.
const GROUP = { journeys: 1, units: 2, alone: 3 } as const;
const WORKERS = { journeys: 3, units: 3, alone: 1 } as const;

/** A project's place in the run: its group, and that group's number of workers. */
function inGroup(group: keyof typeof GROUP) {
  return { maxWorkers: WORKERS[group], sequence: { groupOrder: GROUP[group] } };
}

export default defineConfig({
  test: {
    // The ten slowest files after every run, so that growth is seen when it happens.
    reporters: ['default', './harness/slowest-files.ts'],
    projects: [
      {
        test: {
          name: 'contract',
          ...inGroup('units'),
          root: 'packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          ...inGroup('units'),
          root: 'apps/server',
          // Files share their worker's modules (ISOLATION below).
          isolate: false,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DATABASE: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(postgres
        ? [
            {
              test: {
                name: 'server-postgres',
                ...inGroup('units'),
                root: 'apps/server',
                isolate: false,
                include: STORAGE_FILES,
                environment: 'node' as const,
                env: { TEST_DATABASE: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        test: {
          name: 'media',
          ...inGroup('units'),
          root: 'apps/media',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/chromium.test.ts', 'test/chromium-edge.test.ts'],
          environment: 'node',
          // Rooms and peers log every arrival and departure at info; tests keep the warnings and errors.
          env: { LOG_LEVEL: 'warn' },
          testTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          ...inGroup('units'),
          root: 'apps/web',
          isolate: false,
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...WEB_MOCK_FILES],
          environment: 'jsdom',
          setupFiles: ['./src/testing/setup.ts'],
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web-mocks',
          ...inGroup('units'),
          root: 'apps/web',
          include: WEB_MOCK_FILES,
          environment: 'jsdom',
          setupFiles: ['./src/testing/setup.ts'],
        },
      },
      {
        // npm start itself (scripts/): what it derives from the environment, and that a stop leaves nothing
        // running.
        test: {
          name: 'scripts',
          ...inGroup('units'),
          root: 'scripts',
          include: ['**/*.test.ts'],
          environment: 'node',
          // Among the other projects' files (free ports, own data folders, its processes found by parent).
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        // The operator's files under deploy/: the Grafana dashboard against both services' real /metrics.
        test: {
          name: 'deploy',
          ...inGroup('alone'),
          root: 'deploy',
          include: ['**/*.test.ts'],
          environment: 'node',
          env: { LOG_LEVEL: 'warn' },
          // One at a time at the end (GROUPS above): Chromium receiving through coturn over TLS failed once in
          // five runs (no frame in 45 s) while it shared the machine with the journeys.
          testTimeout: 120_000,
          // The topology test may build the web app for its browser (up to 170 s on a busy machine), unless the
          // journeys' build is already fresh.
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          ...inGroup('journeys'),
          root: 'e2e',
          globalSetup: ['../harness/shared-chromium.ts'],
          include: ['**/*.test.ts'],
          exclude: [
            ...configDefaults.exclude,
            'live-journey.test.ts',
            'replay-journey.test.ts',
            'speaking-journey.test.ts',
          ],
          environment: 'node',
          // Three journeys at a time (GROUPS above): each starts its own server (and media service, Redis) on
          // free loopback ports with its own data folder, with a context in the one shared Chromium, and the web
          // build is shared under a lock (harness/web-build.ts).
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        // Live media in real Chromium (fake devices, loopback): one at a time at the end of the run (GROUPS
        // above), so that the frame rates and moments it measures are not those of a machine busy with others.
        test: {
          name: 'live',
          ...inGroup('alone'),
          root: '.',
          include: [
            'apps/media/test/chromium.test.ts',
            'apps/media/test/chromium-edge.test.ts',
            'e2e/live-journey.test.ts',
            'e2e/replay-journey.test.ts',
            'e2e/speaking-journey.test.ts',
          ],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
