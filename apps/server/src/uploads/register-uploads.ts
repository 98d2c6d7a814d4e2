import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { MAX_UPLOAD_BYTES } from '@sea/contract/uploads';
import type { Config } from '../config.ts';
import { bannerCard } from './process-image.ts';
import { ImageStorage } from '../storage/image-storage.ts';
import { serveUploads } from '../storage/serve-uploads.ts';
import type { Storage } from '../storage/storage.ts';
import { uploadMetrics, type UploadMeter } from './upload-metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploaded images are kept (in `app.files.uploads`: UPLOAD_DIR by default). */
    storage: Storage;
    /** Counts image uploads for `/metrics` (read by `readImageForm`). */
    uploadMeter: UploadMeter;
  }
}

/**
 * Multipart parsing for every route (read through `readImageForm`), the storage driver as `app.storage`, and
 * the stored files served under `/uploads/` (with banners' card copies, made for older banners at start).
 */
export async function registerUploads(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 3, parts: 10 } });
  // With CORS_ORIGINS, pages of other origins read the API: a relative `/uploads/...` would resolve against
  // their own origin (blank images, issue 38), so every upload URL is absolute, from PUBLIC_URL. The web app
  // is served from PUBLIC_URL's origin and loads the same files either way.
  const origin = config.corsOrigins.length > 0 ? config.publicUrl : '';
  const storage = new ImageStorage(app.files.uploads, origin);
  app.decorate('storage', storage);
  app.decorate('uploadMeter', uploadMetrics(app.metrics));
  await app.register(serveUploads, { files: app.files.uploads });
  // Banners stored before card copies existed get theirs in the background; closing waits for it.
  let backfill: Promise<void> = Promise.resolve();
  app.addHook('onReady', async () => {
    backfill = storage.addMissingCards(bannerCard).then(
      (made) => {
        if (made > 0) app.log.info({ made }, 'card copies of stored banners made');
      },
      (error: unknown) => app.log.warn({ err: error }, 'making card copies of stored banners failed'),
    );
  });
  app.addHook('onClose', () => backfill);
}
