import { mkdir } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isServedKey, UPLOADS_PREFIX } from './storage.ts';

/**
 * Serves the local upload folder under `/uploads/`. Every stored name is fresh and random and never rewritten,
 * so responses may be cached for a year as immutable. Only names the storage driver creates are served (stored
 * keys and banners' card copies).
 */
export async function serveUploads(app: FastifyInstance, options: { dir: string }): Promise<void> {
  await mkdir(options.dir, { recursive: true });
  await app.register(fastifyStatic, {
    root: options.dir,
    prefix: UPLOADS_PREFIX,
    // Another @fastify/static instance (the web app) may own the reply decorators.
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    immutable: true,
    maxAge: '365d',
    allowedPath: (pathname) => isServedKey(pathname.replace(/^\/+/, '')),
  });
}
