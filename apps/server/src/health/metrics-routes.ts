import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROUTES } from '@sea/contract/paths';
import { FORWARDING_HEADERS, metricsAccess } from '@sea/service-kit/metrics-access';
import { notFound } from '../errors.ts';

/**
 * Who is asking for `/metrics`. A request that came through a proxy (it carries a forwarding header) is judged
 * by the address Fastify derives under TRUST_PROXY; with no proxy trusted it is refused, since the socket's
 * peer is then the proxy itself, on loopback, whoever is behind it.
 */
function callerOf(request: FastifyRequest, proxyTrusted: boolean): string | undefined {
  const forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
  if (!forwarded) return request.socket.remoteAddress;
  return proxyTrusted && request.headers['x-forwarded-for'] !== undefined ? request.ip : undefined;
}

/**
 * `GET /metrics`: `app.metrics` in the Prometheus text format, answered to loopback and to METRICS_ALLOW;
 * anyone else gets the 404 envelope of an unknown API path, so the endpoint does not show that it exists.
 */
export async function metricsRoutes(app: FastifyInstance): Promise<void> {
  const allowed = metricsAccess(app.config.metricsAllow);
  const proxyTrusted = app.config.trustProxy !== false;
  const schema = {
    tags: ['health'],
    summary: 'Prometheus metrics (loopback and METRICS_ALLOW only; 404 to anyone else)',
  };
  app.get(ROUTES.metrics, { schema }, async (request, reply) => {
    // The API's own 404 (not the web app's page, which a browser's unknown path gets with 200).
    if (!allowed(callerOf(request, proxyTrusted))) throw notFound('path');
    const body = await app.metrics.metrics();
    return reply.header('cache-control', 'no-store').type(app.metrics.contentType).send(body);
  });
}
