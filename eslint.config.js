import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import checkFile from 'eslint-plugin-check-file';
import globals from 'globals';

// Libraries that only one adapter file (or folder) may import, so the rest of the code stays testable
// without them. Tests and benchmarks may import them freely.
const ADAPTERS = {
  ws: ['apps/server/src/plugins/websocket.ts'],
  '@stomp/stompjs': ['apps/web/src/lib/realtime/stomp-client.ts'],
  'socket.io': ['apps/media/src/signalling.ts'],
  'socket.io-client': [
    'apps/web/src/features/live/signalling-client.ts',
    'apps/media/src/relay/origin-pull.ts',
  ],
  werift: ['apps/media/src/rtc/**'],
};

const restricted = (except) =>
  Object.keys(ADAPTERS)
    .filter((name) => name !== except)
    .map((name) => ({ name, message: `Only ${ADAPTERS[name].join(', ')} may import ${name}.` }));

const FEATURES_DIR = 'apps/web/src/features';
const features = fs.existsSync(FEATURES_DIR) ? fs.readdirSync(FEATURES_DIR) : [];

// The web app's floors, from the ground up, as for the server below: a folder imports only the floors beneath
// it. The test helpers in testing/ stand under the features whose tests use them, so they render with the
// shared providers (components/app-providers.tsx) and never reach up into app/ or a feature; a helper that
// needs app/ lives in app/test/.
const WEB_DIR = 'apps/web/src';
const WEB_FLOORS = [
  ['config', 'styles', 'assets'],
  ['lib'],
  ['components'],
  ['testing'],
  ['features'],
  ['app'],
];
const featureZones = features.map((feature) => ({
  target: `${FEATURES_DIR}/${feature}`,
  from: FEATURES_DIR,
  except: [`./${feature}`],
  message: 'Features never import each other; compose them in a route.',
}));
const webZones = WEB_FLOORS.flatMap((floor, level) =>
  floor.map((name) => ({
    target: `${WEB_DIR}/${name}`,
    from: [...WEB_FLOORS.slice(level + 1).flat(), 'main.tsx'].map((above) => `${WEB_DIR}/${above}`),
    message:
      `${name} stands on floor ${level + 1} of WEB_FLOORS (eslint.config.js) and imports only the floors ` +
      'below; move the shared code down.',
  })),
);

// The server's floors, from the ground up: each line is one floor of apps/server/src (folders, and the
// files at its top), and a folder imports only the floors below its own: never a floor above, nor a
// neighbour on its own floor. Lint holds it with one import-x/no-restricted-paths zone per folder; a folder
// on no floor may import nothing (apps/server/test/lint-floors.test.ts keeps every folder listed).
const SERVER_FLOORS = [
  // The kernel: typed errors and their envelope, a download's name, sharp and ioredis loaded on first use,
  // where log lines go, where files are kept, the server's own folder.
  [
    'server-folder.ts',
    'errors.ts',
    'envelope.ts',
    'content-disposition.ts',
    'load-sharp.ts',
    'load-redis.ts',
    'log-destination.ts',
    'storage',
  ],
  // Configuration: plain values, then the environment read once.
  ['tuning.ts', 'write-limits.ts'],
  ['config.ts'],
  ['db'],
  // Cross-cutting plugins: auth, errors, CORS, rate limits, metrics, read cache, websockets, domain events.
  ['plugins'],
  // The STOMP codec, its sessions and SockJS: frames in and out, knowing no topic or destination.
  ['stomp'],
  // The room bus on it: topics, subscriptions, delivery and fan-out that the chat and the classroom stand on.
  ['room-bus'],
  // Services the domains share: the durable job queue, image uploads.
  ['jobs', 'uploads'],
  // The domains. A domain tells others of an ending through app.events (plugins/events.ts), never by a call.
  ['auth'],
  ['users', 'categories'],
  ['classes'],
  [
    'enrolments',
    'schedules',
    'calendar',
    'reviews',
    'instructors',
    'live',
    'notifications',
    'chat',
    'sessions',
    'materials',
  ],
  ['attendance'],
  // The product's surfaces, which compose the domains.
  ['classroom', 'replays', 'media-nodes', 'dashboard', 'health', 'web', 'demo'],
  // The board of the live room, on the classroom's hands and the replays' timeline.
  ['board'],
  // What a replay is studied with: its chapters (the board's pages and the teacher's marks), private notes.
  ['chapters', 'notes'],
  // The composition root.
  ['app.ts'],
  ['serve.ts'],
  // The process entry: module loading made cheaper, then serve.ts.
  ['main.ts'],
];
const SERVER_DIR = 'apps/server/src';
const serverPath = (name) => `${SERVER_DIR}/${name}`;
const serverRoot = path.join(import.meta.dirname, SERVER_DIR);
/** The folders and top-level source files of apps/server/src. */
const serverEntries = fs.existsSync(serverRoot)
  ? fs
      .readdirSync(serverRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || /^[^.]+\.ts$/.test(entry.name))
      .map((entry) => entry.name)
  : [];
const onFloor = (name) => SERVER_FLOORS.findIndex((floor) => floor.includes(name));
const serverZones = [
  ...SERVER_FLOORS.flatMap((floor, level) =>
    floor.map((name) => ({
      target: serverPath(name),
      from: [...floor.filter((other) => other !== name), ...SERVER_FLOORS.slice(level + 1).flat()].map(
        serverPath,
      ),
      message:
        `${name} stands on floor ${level + 1} of SERVER_FLOORS (eslint.config.js) and imports only the ` +
        'floors below; move the shared code down, or tell the news through app.events.',
    })),
  ).filter((zone) => zone.from.length > 0),
  ...serverEntries
    .filter((name) => onFloor(name) === -1)
    .map((name) => ({
      target: serverPath(name),
      from: SERVER_DIR,
      except: [`./${name}`],
      message: `${name} stands on no floor: add it to SERVER_FLOORS in eslint.config.js.`,
    })),
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', 'artifacts/**', 'apps/server/drizzle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX, 'check-file': checkFile },
    languageOptions: { globals: { ...globals.node } },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: restricted(null) }],
      // ignoreExternal: following imports into node_modules (vite's own files) crashes the legacy resolver.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { '{apps,packages}/**/': 'KEBAB_CASE' }],
    },
  },
  ...Object.entries(ADAPTERS).map(([name, files]) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { paths: restricted(name) }] },
  })),
  {
    files: ['**/*.test.{ts,tsx}', '**/test/**', 'e2e/**', 'bench/**', 'harness/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  // One way to write private members per app. The media service (and its benchmark) uses TypeScript's
  // `private`: its tests reach into objects (a worker's thread, werift's state) through casts. Everything else
  // uses ECMAScript `#` members, which nothing outside the class can reach.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['apps/media/**', 'bench/sfu/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['PropertyDefinition', 'MethodDefinition[kind!="constructor"]', 'TSParameterProperty'].map(
          (node) => ({
            selector: `${node}[accessibility="private"]`,
            message: 'Private members are written with # here (only the media service uses `private`).',
          }),
        ),
      ],
    },
  },
  {
    files: ['apps/media/**/*.ts', 'bench/sfu/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'PrivateIdentifier',
          message: "The media service writes private members with TypeScript's `private`, not #.",
        },
      ],
    },
  },
  // The services log through pino (structured lines with their ids, at LOG_LEVEL), never bare console calls;
  // their tests say they skipped through test/skip-notice.ts.
  {
    files: ['apps/server/src/**/*.ts', 'apps/media/src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['@sea/*', '../../apps/*'], message: 'The contract imports nothing but zod.' }],
        },
      ],
    },
  },
  {
    files: [`${SERVER_DIR}/**/*.ts`],
    // Tests may drive their floor through a higher one (the whole app, a media node's report), as
    // folder-loops reads only the source.
    ignores: [`${SERVER_DIR}/**/*.test.ts`],
    rules: {
      // basePath: the zones name paths from the repository's root, wherever eslint runs from.
      'import-x/no-restricted-paths': ['error', { zones: serverZones, basePath: import.meta.dirname }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: featureZones,
          basePath: import.meta.dirname,
        },
      ],
    },
  },
  {
    // A test file may drive its floor through a higher one (a component's test renders it with the test
    // helpers), as on the server; the source itself keeps to the floors.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...webZones, ...featureZones], basePath: import.meta.dirname },
      ],
    },
  },
);
