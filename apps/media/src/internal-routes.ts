import type { IncomingMessage, ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';
import type { Registry } from 'prom-client';
import {
  MEDIA_NODE_AUDIENCE,
  MEDIA_REVOCATION_PATH,
  MediaRevocationSchema,
  type MediaRevocation,
} from '@sea/contract/media-nodes';
import { ROUTES } from '@sea/contract/paths';
import type { Readiness } from '@sea/contract/readiness';
import { FORWARDING_HEADERS, metricsAccess } from '@sea/service-kit/metrics-access';
import { log } from './log.ts';

/** The largest revocation body taken (a withdrawal names one user; a report's answer a few). */
const MAX_BODY_BYTES = 1024 * 1024;

export type InternalRoutesOptions = {
  /** MEDIA_SECRET: the API server signs its calls with it for {@link MEDIA_NODE_AUDIENCE}. */
  secret: string;
  /** Ends what the API server says must end. */
  revoke: (revocation: MediaRevocation) => void;
  /** The metrics served at `GET /metrics` to loopback and to `allow` (METRICS_ALLOW); absent: none. */
  metrics?: { registry: Registry; allow: readonly string[] };
  /** Checks what the node depends on, for `GET /ready`; absent: always ready. */
  ready?: () => Promise<Readiness>;
};

/**
 * The node's plain HTTP routes beside the signalling: `GET /health` (liveness), `GET /ready` (200 when the
 * API server answers, else 503, with each check), `GET /metrics` (Prometheus; loopback and
 * METRICS_ALLOW only, and never through a proxy: nothing proxies this node's metrics, so a forwarded request is
 * someone else's), and `POST /internal/revocations` from the API server (a bearer signed with MEDIA_SECRET for
 * the node audience; a {@link MediaRevocation}). Every other path, and a refused caller, get a 404.
 */
export function internalRoutes(options: InternalRoutesOptions) {
  const key = new TextEncoder().encode(options.secret);
  const answer = (response: ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const metrics = options.metrics;
  const metricsAllowed = metricsAccess(metrics?.allow ?? []);
  const forwarded = (request: IncomingMessage) =>
    FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);

  return (request: IncomingMessage, response: ServerResponse): void => {
    if (request.method === 'GET' && request.url === ROUTES.health) {
      answer(response, 200, { data: 'ok' });
      return;
    }
    if (request.method === 'GET' && request.url === ROUTES.ready) {
      const check = options.ready ?? (async () => ({ ready: true, checks: {} }));
      check().then(
        (result) => answer(response, result.ready ? 200 : 503, result),
        (error: unknown) => {
          log.error({ err: error }, 'the readiness check failed');
          answer(response, 503, { ready: false, checks: {} });
        },
      );
      return;
    }
    if (
      metrics &&
      request.method === 'GET' &&
      request.url === ROUTES.metrics &&
      !forwarded(request) &&
      metricsAllowed(request.socket.remoteAddress)
    ) {
      metrics.registry.metrics().then(
        (body) =>
          response
            .writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' })
            .end(body),
        (error: unknown) => {
          log.error({ err: error }, 'collecting the metrics failed');
          answer(response, 500, { error: 'metrics unavailable' });
        },
      );
      return;
    }
    if (request.method !== 'POST' || request.url !== MEDIA_REVOCATION_PATH) {
      answer(response, 404, { error: 'not found' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        answer(response, 413, { error: 'too large' });
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > MAX_BODY_BYTES) return; // answered already
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      jwtVerify(token, key, { algorithms: ['HS256'], audience: MEDIA_NODE_AUDIENCE }).then(
        () => {
          let revocation: MediaRevocation;
          try {
            revocation = MediaRevocationSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            answer(response, 400, { error: 'not a revocation' });
            return;
          }
          options.revoke(revocation);
          answer(response, 200, { data: 'ok' });
        },
        () => answer(response, 401, { error: 'unauthorized' }),
      );
    });
  };
}
