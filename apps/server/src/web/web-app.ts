import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';

/** Paths that belong to the API: an unknown one answers a 404 envelope, never the web app. */
const API_PREFIXES = ['/api', '/find', '/internal', '/uploads', '/ws', '/health'];
const HASHED_ASSETS = `${path.sep}assets${path.sep}`;

function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/**
 * Serves the built web app from `webDist` when it exists (hashed assets cached for a year, index.html never),
 * and answers unknown GET paths outside the API with index.html so the single-page app's routes work on reload.
 */
export async function registerWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const index = fs.existsSync(indexFile) ? fs.readFileSync(indexFile) : null;
  if (index !== null) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      decorateReply: false,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(HASHED_ASSETS) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    if (
      index !== null &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(request.url)
    ) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
    }
    throw notFound('path');
  });
}
