import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { untar } from '@sea/service-kit/test/untar';

/** The migrations (their contents identify a schema version); the database code loads only to make one. */
const MIGRATIONS_FOLDER = fileURLToPath(new URL('../drizzle', import.meta.url));

let cached: Promise<Blob> | undefined;

/**
 * A migrated PGlite data folder shared by every test file: made once per schema version and kept in the temp
 * folder, because a fresh PGlite runs initdb (seconds on a busy machine) while loading a tarball does not.
 */
export function pgliteTemplate(): Promise<Blob> {
  cached ??= loadOrCreate();
  return cached;
}

async function loadOrCreate(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `sea-pglite-template-${schemaHash()}.tar`);
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
  const { pgliteSnapshot } = await import('../src/db/open-database.ts');
  const snapshot = await pgliteSnapshot();
  // Written whole, then renamed: a parallel test file reads all of it or none.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(temporary, new Uint8Array(await snapshot.arrayBuffer()));
  fs.renameSync(temporary, file);
  return snapshot;
}

/** A short hash of every migration file: a template made from other migrations is never used. */
export function schemaHash(): string {
  const hash = createHash('sha256');
  for (const name of fs.readdirSync(MIGRATIONS_FOLDER, { recursive: true }).map(String).sort()) {
    const full = path.join(MIGRATIONS_FOLDER, name);
    if (fs.statSync(full).isFile()) hash.update(name).update(fs.readFileSync(full));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Fills the PGlite folder of a server's DATA_DIR with the template, so that the real entry point started on it
 * skips initdb and the migrations (most of the 10-20 s of CPU each start on an empty folder cost); it still
 * checks the migrations and seeds as at any start.
 */
export async function migratedPgliteFolder(dataDir: string): Promise<void> {
  untar(new Uint8Array(await (await pgliteTemplate()).arrayBuffer()), path.join(dataDir, 'pglite'));
}
