import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    /** This server's Prometheus registry: each domain with something to count registers its metrics here. */
    metrics: Registry;
  }
}

/**
 * A counter and a histogram of durations over the same labels, told together: the way to count what ends
 * (requests answered, job attempts, uploads) with how long each took. Answers the function that tells both.
 */
export function timedCounter<T extends string>(
  registry: Registry,
  labelNames: readonly T[],
  counter: { name: string; help: string },
  histogram: { name: string; help: string; buckets: number[] },
): (labels: Partial<Record<T, string>>, seconds: number) => void {
  const registers = [registry];
  const counts = new Counter({ ...counter, labelNames, registers });
  const durations = new Histogram({ ...histogram, labelNames, registers });
  return (labels, seconds) => {
    counts.inc(labels);
    durations.observe(labels, seconds);
  };
}

/** The route label of requests no route matched (unknown paths, the web app's fallback). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The server's Prometheus registry (prom-client), `app.metrics`: the process's own metrics (CPU, memory,
 * event-loop lag, GC) and every HTTP request by method, route pattern and status with its duration; the domains
 * register theirs on it, and `GET /metrics` (health/metrics-routes.ts) serves it.
 */
export function registerMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const answered = timedCounter(
    registry,
    ['method', 'route', 'status'],
    { name: 'http_requests_total', help: 'HTTP requests answered, by method, route pattern and status code' },
    {
      name: 'http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to finishing its answer, by method, route pattern and status',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    },
  );
  app.decorate('metrics', registry);
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      route: request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE),
      status: String(reply.statusCode),
    };
    answered(labels, reply.elapsedTime / 1000);
    done();
  });
}
