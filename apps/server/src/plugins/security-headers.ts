import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/** Helmet's headers with a content security policy that lets the web app reach the media service. */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const media = new URL(config.mediaUrl);
  const mediaSocket = `${media.protocol === 'https:' ? 'wss:' : 'ws:'}//${media.host}`;
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        connectSrc: ["'self'", media.origin, mediaSocket],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
}
