import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';
import { createIndexPage } from './index-page.ts';
import { readManifest } from './page-manifest.ts';

/** Paths that belong to the API: an unknown one answers a 404 envelope, never the web app. */
const API_PREFIXES = ['/api', '/find', '/internal', '/uploads', '/ws', '/health'];
const HASHED_ASSETS = `${path.sep}assets${path.sep}`;

function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/**
 * The best encoding the client accepts for a page built per request: Brotli, then gzip, else none. A coding
 * listed with `q=0` is refused (RFC 9110 12.5.3).
 */
export function pageEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set<string>();
  for (const item of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [coding = '', ...params] = item.split(';').map((part) => part.trim());
    const refused = params.some((param) => /^q=0(\.0*)?$/.test(param));
    if (!refused) accepted.add(coding);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

function compressPage(page: string, encoding: 'br' | 'gzip'): Buffer {
  // A middle level: a page is compressed per request, in well under a millisecond at this size.
  return encoding === 'br'
    ? zlib.brotliCompressSync(page, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
    : zlib.gzipSync(page, { level: 6 });
}

/**
 * Serves the built web app from `webDist` when it exists: hashed assets cached for a year, and their
 * Brotli/gzip copies (written by the build) to clients that accept them; index.html never cached, filled in
 * per page (see `createIndexPage`) and compressed. Unknown GET paths outside the API answer index.html so
 * the single-page app's routes work on reload.
 */
export async function registerWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const html = fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : null;
  if (html !== null) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      decorateReply: false,
      cacheControl: false,
      preCompressed: true,
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(HASHED_ASSETS) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  // A catalogue page embeds the answers of its first requests, asked of this same server (same routes,
  // same read cache) without a token: those lists are the same for every caller.
  const renderIndex =
    html === null
      ? null
      : createIndexPage(html, readManifest(webDist), async (requestKey) => {
          try {
            const answer = await app.inject({ method: 'GET', url: requestKey });
            return answer.statusCode === 200 ? (answer.json() as unknown) : null;
          } catch (error) {
            // The page still works without it: the app then asks for that list itself.
            app.log.error({ err: error, requestKey }, 'embedding a first answer failed');
            return null;
          }
        });

  app.setNotFoundHandler(async (request, reply) => {
    if (
      renderIndex !== null &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(request.url)
    ) {
      const page = await renderIndex(request.url);
      const encoding = pageEncoding(request.headers['accept-encoding']);
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding');
      if (encoding === null) return reply.send(page);
      return reply.header('content-encoding', encoding).send(compressPage(page, encoding));
    }
    throw notFound('path');
  });
}
