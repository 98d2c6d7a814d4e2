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
  // app.mediaNodes is registered after this (it is read when a ticket is placed, never before).
  const gone = (nodeId: string) => app.mediaNodes.gone(nodeId);
  app.decorate('mediaPlacement', new MediaPlacement(registry, mediaUrl, app.log, gone));
  app.addHook('onClose', async () => {
    await registry?.close();
  });
}
