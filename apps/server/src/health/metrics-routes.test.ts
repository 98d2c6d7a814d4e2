import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@sea/contract/paths';
import { expectError } from '../../test/expect-envelope.ts';
import { buildTestApp } from '../../test/helper.ts';
import { declaredMetrics, parsePrometheusText, valueOf } from '../../test/prometheus-text.ts';

const apps: FastifyInstance[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

async function app(overrides: Parameters<typeof buildTestApp>[0] = {}): Promise<FastifyInstance> {
  const built = await buildTestApp(overrides);
  apps.push(built);
  return built;
}

async function scrape(target: FastifyInstance) {
  const response = await target.inject({ url: ROUTES.metrics });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return { text: response.body, samples: parsePrometheusText(response.body) };
}

describe('GET /metrics', () => {
  let server: FastifyInstance;
  beforeAll(async () => {
    server = await app();
  });

  it('counts requests by method, route pattern and status, and times each one, exactly', async () => {
    const requests = { method: 'GET', route: '/api/classes/:classId', status: '404' };
    const before = (await scrape(server)).samples;
    for (const id of [1, 2, 3])
      expect((await server.inject({ url: `/api/classes/${id}00` })).statusCode).toBe(404);
    for (let i = 0; i < 2; i += 1) expect((await server.inject({ url: ROUTES.health })).statusCode).toBe(200);
    await server.inject({ method: 'POST', url: '/no/such/path' });
    const after = (await scrape(server)).samples;

    const moved = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('http_requests_total', requests)).toBe(3);
    expect(moved('http_request_duration_seconds_count', requests)).toBe(3);
    expect(moved('http_request_duration_seconds_bucket', { ...requests, le: '+Inf' })).toBe(3);
    expect(moved('http_requests_total', { method: 'GET', route: ROUTES.health, status: '200' })).toBe(2);
    expect(moved('http_requests_total', { method: 'POST', route: 'unmatched', status: '404' })).toBe(1);
    // The raw URLs never become labels.
    expect(after.some((s) => s.labels.route?.includes('100'))).toBe(false);
    expect(valueOf(after, 'http_request_duration_seconds_sum', requests)).toBeGreaterThan(0);
  });

  it("includes the process's default metrics and the chat's and the job queue's", async () => {
    const { text } = await scrape(server);
    const names = declaredMetrics(text);
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'chat_connections',
      'chat_messages_total',
      'job_queue_jobs',
    ]) {
      expect(names.has(name), name).toBe(true);
    }
  });

  it('answers 404 to a caller that is neither loopback nor in METRICS_ALLOW', async () => {
    for (const remoteAddress of ['203.0.113.7', '10.1.2.3', '::ffff:198.51.100.1']) {
      const response = await server.inject({ url: ROUTES.metrics, remoteAddress });
      expectError(response, 404);
      expect(response.body).not.toContain('http_requests_total');
    }
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect((await server.inject({ url: ROUTES.metrics, remoteAddress })).statusCode).toBe(200);
    }
  });

  it('refuses what came through a proxy it was not told to trust, even from loopback', async () => {
    for (const headers of [{ 'x-forwarded-for': '127.0.0.1' }, { 'x-real-ip': '127.0.0.1' }]) {
      expect((await server.inject({ url: ROUTES.metrics, headers })).statusCode).toBe(404);
    }
  });

  it('answers the addresses and networks of METRICS_ALLOW, and judges proxied callers by TRUST_PROXY', async () => {
    const allowing = await app({
      metricsAllow: ['203.0.113.0/24', '2001:db8::5'],
      trustProxy: ['127.0.0.1'],
    });
    const status = async (remoteAddress: string, forwardedFor?: string) =>
      (
        await allowing.inject({
          url: ROUTES.metrics,
          remoteAddress,
          headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
        })
      ).statusCode;
    expect(await status('203.0.113.200')).toBe(200);
    expect(await status('2001:db8::5')).toBe(200);
    expect(await status('2001:db8::6')).toBe(404);
    expect(await status('198.51.100.1')).toBe(404);
    // Through the trusted proxy on loopback: the caller it names is judged, not the proxy.
    expect(await status('127.0.0.1', '203.0.113.9')).toBe(200);
    expect(await status('127.0.0.1', '198.51.100.1')).toBe(404);
    expect(await status('127.0.0.1', '127.0.0.1, 198.51.100.1')).toBe(404);
  });
});
