import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { type FileStores, openFileStores } from '../storage/file-stores.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every area of files (uploads, materials, replays, recordings), on the configured driver. */
    files: FileStores;
  }
}

/** The file stores of STORAGE as `app.files`; the object store's connections close with the app. */
export async function registerStorage(app: FastifyInstance, config: Config): Promise<void> {
  const stores = await openFileStores(config);
  app.decorate('files', stores);
  app.addHook('onClose', async () => stores.close());
  app.log.info({ storage: config.storage.kind }, 'files are kept');
}
