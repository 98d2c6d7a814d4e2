import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/** Where the web app loads Kakao's JavaScript SDK from when Kakao login is configured. */
export const KAKAO_SDK_ORIGIN = 'https://t1.kakaocdn.net';

/**
 * The content security policy: helmet's defaults, plus the media service (signalling), blob: media and, with
 * Kakao login, Kakao's SDK. Built once: helmet would parse and re-serialise the directives on every request, a
 * measurable share of a cached read's cost.
 */
export function contentSecurityPolicy(mediaUrl: string, kakaoSdk: boolean): string {
  const media = new URL(mediaUrl);
  const mediaSocket = `${media.protocol === 'https:' ? 'wss:' : 'ws:'}//${media.host}`;
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'connect-src': ["'self'", media.origin, mediaSocket],
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

/** Helmet's headers, with the content security policy above. */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifyHelmet, { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false });
  const policy = contentSecurityPolicy(config.mediaUrl, config.kakao.restApiKey !== null);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('content-security-policy', policy);
    done();
  });
}
