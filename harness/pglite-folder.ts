import path from 'node:path';
import { pgliteTemplate } from '../apps/server/test/pglite-template.ts';
import { untar } from './untar.ts';

/**
 * Fills the PGlite folder of a server's DATA_DIR with the migrated template that the server's own tests use, so
 * a server started on it skips initdb and the migrations: that was most of the 10-20 s of CPU each start of the
 * real entry point cost. The server still runs its migrations' check and seeds as at any start.
 */
export async function migratedPgliteFolder(dataDir: string): Promise<void> {
  const template = new Uint8Array(await (await pgliteTemplate()).arrayBuffer());
  untar(template, path.join(dataDir, 'pglite'));
}
