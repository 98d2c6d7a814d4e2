import fs from 'node:fs';
import path from 'node:path';

/**
 * Test files placed in vitest.config.ts's projects by what they do. Each rule reads the files, so a moved or
 * new file is placed by its content, never by a list someone has to keep.
 *
 * The API server's files are split by what they test, for the two runs of its suite (on PostgreSQL when it is
 * configured, else on PGlite; then on PGlite again).
 *
 * - A file whose subject is SQL or storage runs on both databases: it reads or writes the database itself
 *   (it imports the database layer: `src/db/`, drizzle-orm or postgres.js), or it has a branch per database
 *   or names `TEST_DATABASE` (a file that reaches the database through HTTP only).
 * - Every other file runs once, in the project `server`: HTTP, protocols, processes and pure parts behave the
 *   same on both, and a file that needs PostgreSQL for its subject (two servers sharing one, a killed
 *   database) opens its own databases through the test helper whatever the project.
 */
const STORAGE_SUBJECT = [
  /from '[^']*\/db\/[^']*'/,
  /from '\.\/(database|open-database|schema)\.ts'/,
  /from 'drizzle-orm[^']*'/,
  /from 'postgres'/,
  /\bTEST_DATABASE\b/,
];

/** Type-only imports name the database's types without reaching it. */
const TYPE_IMPORT = /^import type [^;]+;$/gm;

/** Test files of `root` (relative to it) under `folders` whose names end with `.test.ts` or `.test.tsx`. */
function testFiles(root: string, folders: string[]): string[] {
  return folders.flatMap((folder) =>
    fs
      .readdirSync(path.join(root, folder), { recursive: true })
      .map(String)
      .filter((name) => /\.test\.tsx?$/.test(name))
      .map((name) => path.join(folder, name)),
  );
}

/** The server's test files (relative to `root`) whose subject is SQL or storage: they run on both databases. */
export function storageTestFiles(root: string, folders = ['src', 'test']): string[] {
  return testFiles(root, folders)
    .filter((file) => {
      const text = fs.readFileSync(path.join(root, file), 'utf8').replace(TYPE_IMPORT, '');
      return STORAGE_SUBJECT.some((pattern) => pattern.test(text));
    })
    .sort();
}

/**
 * Files that replace a module with `vi.mock`. A mock applies only to a module graph the file loads afresh, so
 * these files run isolated, while their project's other files share their worker's modules.
 */
export function moduleMockFiles(root: string, folders = ['src']): string[] {
  return testFiles(root, folders)
    .filter((file) => /\bvi\.mock\(/.test(fs.readFileSync(path.join(root, file), 'utf8')))
    .sort();
}
