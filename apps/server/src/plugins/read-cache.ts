import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ReadCacheSync } from '../classes/read-cache-sync.ts';
import { ReadCache } from '../classes/read-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    readCache: ReadCache;
  }
  interface FastifyRequest {
    /** The cache generation when a cacheable read started (null: not cached). */
    readCacheGeneration: number | null;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Creates `app.readCache` and invalidates it after every write request of any module (a nickname change
 * alters class items too), whatever its outcome; with Redis, other server processes invalidate theirs too.
 */
export async function registerReadCache(
  app: FastifyInstance,
  ttlMs: number,
  redis: { url: string; channel: string } | null,
): Promise<void> {
  const cache = new ReadCache(ttlMs);
  app.decorate('readCache', cache);
  app.decorateRequest('readCacheGeneration', null);
  // With Redis, the other server processes drop their caches as soon as this one writes.
  const sync =
    redis !== null && cache.enabled
      ? new ReadCacheSync(
          redis.url,
          redis.channel,
          () => cache.invalidate(),
          (message, error) => app.log.warn({ err: error }, message),
        )
      : null;
  if (sync !== null) {
    await sync.ready();
    app.addHook('onClose', () => sync.close());
  }
  // Before the answer leaves: a client that saw its write succeed never reads an older cached answer.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!READ_METHODS.has(request.method)) {
      cache.invalidate();
      sync?.announceWrite();
    }
    return payload;
  });
}

/**
 * Route hooks that answer a GET from the read cache when possible and store successful answers. Only for
 * routes whose answer is the same for every caller; `bypass` lists the requests that are not.
 */
export function cachedRead(app: FastifyInstance, bypass: (request: FastifyRequest) => boolean = () => false) {
  return {
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      if (!app.readCache.enabled || request.method !== 'GET' || bypass(request)) return undefined;
      const body = app.readCache.get(request.url);
      if (body !== undefined) return reply.type('application/json; charset=utf-8').send(body);
      request.readCacheGeneration = app.readCache.generation;
      return undefined;
    },
    onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (request.readCacheGeneration !== null && reply.statusCode === 200 && typeof payload === 'string') {
        const body = Buffer.from(payload);
        app.readCache.set(request.url, body, request.readCacheGeneration);
        return body;
      }
      return payload;
    },
  };
}
