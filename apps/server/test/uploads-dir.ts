import { readdir } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';

/** Every file under the app's upload folder, as paths relative to it (sorted). */
export async function storedFiles(app: FastifyInstance): Promise<string[]> {
  try {
    const entries = await readdir(app.config.uploadDir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) =>
        `${entry.parentPath.slice(app.config.uploadDir.length + 1)}/${entry.name}`.replace(/^\//, ''),
      )
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
