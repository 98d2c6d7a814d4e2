import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.ts';
import { ROUTES } from '@sea/contract/paths';

/** Where the web app loads Kakao's JavaScript SDK from when Kakao login is configured. */
export const KAKAO_SDK_ORIGIN = 'https://t1.kakaocdn.net';

/**
 * The content security policy: helmet's defaults, plus the media nodes (signalling: MEDIA_URL's origin and
 * MEDIA_ORIGINS, each over HTTP and WebSocket), blob: media and, with Kakao login, Kakao's SDK. Built once:
 * helmet would parse and re-serialise the directives on every request, a measurable share of a cached read's
 * cost.
 */
export function contentSecurityPolicy(
  mediaUrl: string,
  kakaoSdk: boolean,
  mediaOrigins: string[] = [],
): string {
  const media = [new URL(mediaUrl).origin, ...mediaOrigins].flatMap((origin) => [
    origin,
    origin.replace(/^http/, 'ws'),
  ]);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'connect-src': ["'self'", ...new Set(media)],
    'font-src': ["'self'", 'https:', 'data:'],
    'form-action': ["'self'"],
    'frame-ancestors': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'media-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'script-src': kakaoSdk ? ["'self'", KAKAO_SDK_ORIGIN] : ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join(';');
}

/**
 * Helmet's default headers (without its content security policy and cross-origin embedder policy) plus the
 * policy above, as one lower-case header map. Computed once by running helmet's middleware against a recording
 * response: none of these headers depends on the request, and running helmet per request cost a measurable
 * share of a cached read (see bench/api).
 */
export function securityHeaders(policy: string): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false })(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error !== undefined) throw error;
      finished = true;
    },
  );
  // Helmet's middlewares are synchronous; anything else would leave requests without these headers.
  if (!finished) throw new Error('helmet did not finish synchronously');
  headers['content-security-policy'] = policy;
  return Object.freeze(headers);
}

/**
 * Sends the security headers above with every answer. With CORS_ORIGINS, uploaded images are also
 * `Cross-Origin-Resource-Policy: cross-origin`, so those front ends can show them with a plain `<img>` (helmet's
 * `same-origin` makes the browser refuse them); they are the public pictures of classes and people anyway.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const headers = securityHeaders(
    contentSecurityPolicy(config.mediaUrl, config.kakao.restApiKey !== null, config.mediaOrigins),
  );
  const uploads =
    config.corsOrigins.length > 0
      ? Object.freeze({ ...headers, 'cross-origin-resource-policy': 'cross-origin' })
      : headers;
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith(`${ROUTES.uploads}/`) ? uploads : headers);
    done();
  });
}
