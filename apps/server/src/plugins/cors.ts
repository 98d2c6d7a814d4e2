import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's CORS options over the app's (@fastify/cors reads them), or false for none. */
    cors?: false | { credentials?: boolean };
  }
}

/** How long a browser may keep a preflight's answer (Chromium keeps none longer than 2 hours). */
export const PREFLIGHT_MAX_AGE_S = 7200;
/** What a front end on another origin sends beyond a simple request: the bearer token and a JSON body. */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type'];
/** Headers a front end may read besides the simple ones: when to try again after a 429 or 503. */
const EXPOSED_HEADERS = ['Retry-After'];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Whether a browser page of `origin` may use this server: a page of the server itself (the origin names the
 * request's own host, or PUBLIC_URL's origin behind a proxy that rewrites the host) or one of CORS_ORIGINS. A
 * request without an Origin header is not a cross-origin browser request (a native client, a same-origin
 * navigation) and is allowed; what it may do is the token's business.
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  options: { publicUrl: string; corsOrigins: readonly string[] },
): boolean {
  if (origin === undefined) return true;
  if (options.corsOrigins.includes(origin)) return true;
  if (origin === new URL(options.publicUrl).origin) return true;
  try {
    return host !== undefined && new URL(origin).host === host.toLowerCase();
  } catch {
    return false; // `null` and other opaque origins are nobody's page
  }
}

/**
 * CORS for the front ends of CORS_ORIGINS (none by default: then nothing is registered and a preflight is a
 * 404 like any unknown OPTIONS). Their preflights are answered for the bearer header and JSON bodies; no
 * credentials are allowed, since the API reads only bearer tokens, never cookies. Another origin's preflight
 * gets the 404 and its requests no CORS headers, so the browser keeps the answers from its page.
 */
export async function registerCors(app: FastifyInstance, corsOrigins: readonly string[]): Promise<void> {
  if (corsOrigins.length === 0) return;
  const allowed = new Set(corsOrigins);
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: METHODS,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: PREFLIGHT_MAX_AGE_S,
  });
}
