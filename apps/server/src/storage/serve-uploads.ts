import type { FastifyInstance } from 'fastify';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { isServedKey, UPLOADS_PREFIX } from './storage.ts';

const TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png' };

/**
 * Serves the uploads' store under `/uploads/`, on either driver (the same URLs the database's keys always
 * made). Every stored name is fresh and random and never rewritten, so responses may be cached for a year as
 * immutable. Only names the storage creates are served (stored keys and banners' card copies).
 */
export async function serveUploads(app: FastifyInstance, options: { files: FileStore }): Promise<void> {
  app.get(`${UPLOADS_PREFIX}*`, { schema: { hide: true } }, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const opened = isServedKey(key) ? await options.files.open(key) : null;
    if (opened === null) return reply.callNotFound();
    return reply
      .type(TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream')
      .header('content-length', String(opened.size))
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(opened.stream);
  });
}
