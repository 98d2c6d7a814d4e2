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
 * (requests answered, job attempts, uploads) with how long each took. `total` and `seconds` are each metric's
 * name and help. Answers the function that tells both.
 */
export function timedCounter<T extends string>(
  registry: Registry,
  labelNames: readonly T[],
  metrics: { total: [name: string, help: string]; seconds: [name: string, help: string]; buckets: number[] },
): (labels: Partial<Record<T, string>>, seconds: number) => void {
  const registers = [registry];
  const [name, help] = metrics.total;
  const counts = new Counter({ name, help, labelNames, registers });
  const [durationName, durationHelp] = metrics.seconds;
  const durations = new Histogram({
    name: durationName,
    help: durationHelp,
    labelNames,
    buckets: metrics.buckets,
    registers,
  });
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
  const answered = timedCounter(registry, ['method', 'route', 'status'], {
    total: ['http_requests_total', 'HTTP requests answered, by method, route pattern and status code'],
    seconds: [
      'http_request_duration_seconds',
      'Time from receiving an HTTP request to finishing its answer, by method, route pattern and status',
    ],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
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
