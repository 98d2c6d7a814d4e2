import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { moduleMockFiles, storageTestFiles } from './harness/suite-files.ts';

// One runner for the whole repository. The server suite runs on PostgreSQL when it is configured (DATABASE_URL,
// required when CI=true), else on PGlite; with PostgreSQL its files whose subject is SQL or storage run a second
// time on PGlite, `npm start`'s embedded default.
const postgres = Boolean(process.env.DATABASE_URL) || process.env.CI === 'true';
// PostgreSQL first: the same files took 1.3 times the time and 2.3 times the test workers' CPU on PGlite (a
// PostgreSQL in WebAssembly in the worker itself), where the suite is CPU-bound.
const SERVER_DATABASE = postgres ? 'postgres' : 'pglite';
// The server's files whose subject is SQL or storage (harness/suite-files.ts says how they are found): with
// PostgreSQL configured they run a second time, on PGlite; every other file runs once.
const STORAGE_FILES = postgres ? storageTestFiles('apps/server') : [];
// The web app's files that replace a module with vi.mock: they need a module graph of their own.
const WEB_MOCK_FILES = moduleMockFiles('apps/web');

// ISOLATION: the server's and the web app's files run one after another in each worker without a fresh module
// graph per file. Importing the server (Fastify, Drizzle, pino, sharp, the routes) or the web app (React, jsdom)
// took 4-6 s of CPU per file, over half of those projects' time; the files build their own apps and clean up
// after themselves, so what they share is only code. A file that needs module state of its own resets it; a
// web file that mocks a module runs in the isolated project web-mocks.

// GROUPS: the browser journeys run first, two at a time (each drives a Chromium, its own server and often a
// media service: two already keep both cores busy); then the other projects' files, four at a time, since they
// mostly wait on their database, sockets, timers and child processes (two at a time left the machine a quarter
// idle); then `deploy`, one file at a time. `live` runs on its own after all of them (package.json).
const JOURNEYS = { sequence: { groupOrder: 0 }, maxWorkers: 2 };
const FILES = { sequence: { groupOrder: 1 }, maxWorkers: 4 };

export default defineConfig({
  test: {
    // Each group sets its own (GROUPS above), and `deploy` and `live` run one file at a time: this is only the
    // default of a project added without a group (Vitest's own would be one worker fewer than the cores).
    maxWorkers: 2,
    // The ten slowest files after every run, so that growth is seen when it happens.
    reporters: ['default', './harness/slowest-files.ts'],
    projects: [
      {
        test: {
          name: 'contract',
          ...FILES,
          root: 'packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'service-kit',
          ...FILES,
          root: 'packages/service-kit',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 150_000,
        },
      },
      {
        test: {
          name: 'server',
          ...FILES,
          root: 'apps/server',
          // Files share their worker's modules (ISOLATION below).
          isolate: false,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DATABASE: SERVER_DATABASE },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(postgres
        ? [
            {
              test: {
                name: 'server-pglite',
                ...FILES,
                root: 'apps/server',
                isolate: false,
                include: STORAGE_FILES,
                environment: 'node' as const,
                env: { TEST_DATABASE: 'pglite' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        test: {
          name: 'media',
          ...FILES,
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
          ...FILES,
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
          ...FILES,
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
          ...FILES,
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
          root: 'deploy',
          include: ['**/*.test.ts'],
          // The two-host test is live media in Chromium: it runs in `live`.
          exclude: [...configDefaults.exclude, 'hosts.test.ts'],
          environment: 'node',
          env: { LOG_LEVEL: 'warn' },
          // One at a time, after the other projects' files: Chromium receiving through coturn over TLS failed
          // once in five runs (no frame in 45 s) while it shared the machine with the journeys.
          fileParallelism: false,
          testTimeout: 120_000,
          // The topology test may build the web app for its browser (up to 170 s on a busy machine), unless the
          // journeys' build is already fresh.
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          ...JOURNEYS,
          root: 'e2e',
          globalSetup: ['../harness/shared-chromium.ts'],
          include: ['**/*.test.ts'],
          exclude: [
            ...configDefaults.exclude,
            'live-journey.test.ts',
            'replay-journey.test.ts',
            'speaking-journey.test.ts',
            'recording-disk.test.ts',
          ],
          environment: 'node',
          // Two journeys at a time, before the other projects' files (GROUPS): each starts its own server (and
          // media service, Redis) on free loopback ports with its own data folder, its people are contexts of
          // the one shared Chromium (or browsers of their own where they need other flags), and the web build
          // is shared under a lock (harness/web-build.ts).
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        // Issue 37's lecture on a recordings disk that fills (e2e/recording-disk.test.ts): no browser, and a
        // minute of its 80 s is a full disk waited out by the letter of the issue, so it waits among the other
        // projects' files rather than holding one of the journeys' two places.
        test: {
          name: 'recording-disk',
          ...FILES,
          root: 'e2e',
          include: ['recording-disk.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        // Live media in real Chromium (fake devices, loopback): `npm test` runs this project on its own after
        // the others, so the frame rates it measures are not those of a machine busy with other suites.
        test: {
          name: 'live',
          root: '.',
          include: [
            'apps/media/test/chromium.test.ts',
            'apps/media/test/chromium-edge.test.ts',
            'e2e/live-journey.test.ts',
            'e2e/replay-journey.test.ts',
            'e2e/speaking-journey.test.ts',
            'deploy/hosts.test.ts',
          ],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
