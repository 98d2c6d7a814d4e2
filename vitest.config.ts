import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// One runner for the whole repository. The server suite runs against PGlite always, and a second time
// against PostgreSQL when DATABASE_URL is set (required when CI=true).
const postgres = Boolean(process.env.DATABASE_URL) || process.env.CI === 'true';
// Slow server tests whose subject is not storage (the chat's transport, back-pressure and metrics, rate limits,
// replay processing, HTTP plumbing: bodies, uploads, headers, docs, /metrics, who may call what, the production
// guard): with PostgreSQL configured they run once, on PostgreSQL, not a second time on PGlite. A test with a
// branch per database, or whose queries behave differently on the two, stays on both.
const NOT_STORAGE = [
  'src/chat/slow-consumer.test.ts',
  'src/chat/stomp-session-fuzz.test.ts',
  'src/chat/chat-metrics.test.ts',
  'test/chat-fuzz.test.ts',
  'src/plugins/rate-limit.test.ts',
  'src/write-limits.test.ts',
  'src/plugins/security-headers.test.ts',
  'src/plugins/docs.test.ts',
  'src/plugins/errors.test.ts',
  'src/health/metrics-routes.test.ts',
  'src/replays/replay-job.test.ts',
  'src/replays/replay-close.test.ts',
  'test/authorisation-matrix.test.ts',
  'test/uploads-http.test.ts',
  // It starts the real entry point on PostgreSQL whenever PostgreSQL answers, in either project.
  'test/production-guard.test.ts',
];

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on CI's two. The server's files mostly wait on
    // their database, sockets and child processes, so two at a time keep both cores busy.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'contract',
          root: 'packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(postgres ? NOT_STORAGE : [])],
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
                root: 'apps/server',
                include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
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
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/testing/setup.ts'],
        },
      },
      {
        // npm start itself (scripts/): what it derives from the environment, and that a stop leaves nothing
        // running.
        test: {
          name: 'scripts',
          root: 'scripts',
          include: ['**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
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
          environment: 'node',
          env: { LOG_LEVEL: 'warn' },
          fileParallelism: false,
          testTimeout: 120_000,
          // The topology test builds the web app once for its browser (up to 170 s on a busy machine).
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.test.ts'],
          exclude: [
            ...configDefaults.exclude,
            'live-journey.test.ts',
            'replay-journey.test.ts',
            'speaking-journey.test.ts',
          ],
          environment: 'node',
          // Two journeys at a time, alongside the other projects' files: each starts its own server (and
          // Chromium, media service, Redis) on free loopback ports with its own data folder, and the web build
          // is shared under a lock (harness/web-build.ts).
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
