import fs from 'node:fs';
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
  '@stomp/stompjs': ['apps/web/src/features/chat/chat-connection.ts'],
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

// The server's folders that are not domains: cross-cutting plugins and the database. Every other folder of
// apps/server/src is a domain, which plugins never import (a domain imports plugins, not the reverse).
const SERVER_DIR = 'apps/server/src';
const SERVER_SHARED = new Set(['plugins', 'db']);
const serverDomains = fs.existsSync(SERVER_DIR)
  ? fs
      .readdirSync(SERVER_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !SERVER_SHARED.has(entry.name))
      .map((entry) => `${SERVER_DIR}/${entry.name}`)
  : [];

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
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: `${SERVER_DIR}/plugins`,
              from: serverDomains,
              message: 'Plugins are cross-cutting and import no domain folder; move the shared code down.',
            },
          ],
        },
      ],
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
          zones: features.map((feature) => ({
            target: `${FEATURES_DIR}/${feature}`,
            from: FEATURES_DIR,
            except: [`./${feature}`],
            message: 'Features never import each other; compose them in a route.',
          })),
        },
      ],
    },
  },
);
