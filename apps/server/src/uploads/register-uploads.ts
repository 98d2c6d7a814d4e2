import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { MAX_UPLOAD_BYTES } from '@sea/contract/uploads';
import type { Config } from '../config.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import { serveUploads } from '../storage/serve-uploads.ts';
import type { Storage } from '../storage/storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploaded images are kept (the local folder UPLOAD_DIR by default). */
    storage: Storage;
  }
}

/**
 * Multipart parsing for every route (read through `readImageForm`), the storage driver as `app.storage`, and
 * the stored files served under `/uploads/`.
 */
export async function registerUploads(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 3, parts: 10 } });
  app.decorate('storage', new LocalStorage(config.uploadDir));
  await app.register(serveUploads, { dir: config.uploadDir });
}
