import type { FastifyInstance } from 'fastify';
import { MediaPlacement } from './media-placement.ts';
import { NodeRegistry } from './node-registry.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Chooses the media node each live ticket names (one node without REDIS_URL). */
    mediaPlacement: MediaPlacement;
  }
}

/** The placement of live tickets on media nodes: through the Redis registry when REDIS_URL is set. */
export function registerMediaPlacement(app: FastifyInstance): void {
  const { redisUrl, mediaUrl } = app.config;
  const registry = redisUrl
    ? new NodeRegistry({ url: redisUrl, log: (message, error) => app.log.warn({ err: error }, message) })
    : null;
  app.decorate('mediaPlacement', new MediaPlacement(registry, mediaUrl, app.log));
  app.addHook('onClose', async () => {
    await registry?.close();
  });
}
