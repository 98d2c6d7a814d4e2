import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ReadCacheSync } from './read-cache-sync.ts';
import { AnswerCache, envelopeTag, matchesEtag } from './answer-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    readCache: AnswerCache;
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
  const cache = new AnswerCache(ttlMs);
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
  // A plain (not async) hook: it runs for every request, and a promise per request is measurable.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!READ_METHODS.has(request.method)) {
      cache.invalidate();
      sync?.announceWrite();
    }
    done(null, payload);
  });
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Route hooks that answer a GET from the read cache when possible and store successful answers, with a weak
 * ETag: a request whose If-None-Match names it gets 304 without a body. Only for routes whose answer is the
 * same for every caller; `bypass` lists the requests that are not. Plain hooks (no promise per hit).
 */
export function cachedRead(app: FastifyInstance, bypass: (request: FastifyRequest) => boolean = () => false) {
  const cache = app.readCache;
  return {
    onRequest: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (!cache.enabled || request.method !== 'GET' || bypass(request)) {
        done();
        return;
      }
      const answer = cache.get(request.url);
      if (answer === undefined) {
        request.readCacheGeneration = cache.generation;
        done();
        return;
      }
      // Answered here: the rest of the request's hooks and the handler do not run (done is not called).
      reply.header('etag', answer.etag);
      if (matchesEtag(request.headers['if-none-match'], answer.etag)) reply.code(304).send();
      else reply.header('content-type', JSON_TYPE).send(answer.body);
    },
    onSend: (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (error: Error | null, payload?: unknown) => void,
    ) => {
      if (request.readCacheGeneration === null || reply.statusCode !== 200 || typeof payload !== 'string') {
        done(null, payload);
        return;
      }
      const answer = { body: Buffer.from(payload), etag: envelopeTag(payload) };
      cache.set(request.url, answer, request.readCacheGeneration);
      reply.header('etag', answer.etag);
      if (matchesEtag(request.headers['if-none-match'], answer.etag)) {
        reply.code(304);
        done(null, null);
        return;
      }
      done(null, answer.body);
    },
  };
}
