import fs from 'node:fs';
import path from 'node:path';

/**
 * The API server's test files, split by what they test, for the two runs of its suite (PGlite always, and
 * PostgreSQL when it is configured). The rule reads each file, so a moved or new file is placed by what it
 * does, never by a list someone has to keep.
 *
 * - A file whose subject is SQL or storage runs on both databases: it reads or writes the database itself
 *   (it imports the database layer: `src/db/`, drizzle-orm or postgres.js), or it has a branch per database
 *   (it reads `TEST_DATABASE`).
 * - Every other file runs once, in the PGlite project: HTTP, protocols, processes and pure parts behave the
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

/** Test files of `root` (relative to it) matching `.test.ts` under `folders`. */
function testFiles(root: string, folders: string[]): string[] {
  return folders.flatMap((folder) =>
    fs
      .readdirSync(path.join(root, folder), { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.test.ts'))
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
