import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@sea/contract/paths';
import { buildTestApp } from '../../test/helper.ts';
import { parsePrometheusText, valueOf } from '../../test/prometheus-text.ts';
import { jobs } from '../db/schema.ts';
import { jobMetrics } from './job-metrics.ts';
import { enqueueJob } from './job-queue.ts';
import { type JobLog, JobWorker, PermanentJobError } from './job-worker.ts';

let app: FastifyInstance;
const quiet: JobLog = { info: () => {}, warn: () => {}, error: () => {} };

beforeAll(async () => {
  app = await buildTestApp();
  await app.db.delete(jobs);
});
afterAll(() => app.close());

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('job metrics', () => {
  it("report the queue's jobs by kind and state on the server's /metrics", async () => {
    const later = new Date(Date.now() + 3_600_000);
    for (let i = 0; i < 3; i += 1) await enqueueJob(app.db, 'replay', { i }, { runAt: later });
    await enqueueJob(app.db, 'thumbnail', {}, { runAt: later });
    const samples = parsePrometheusText((await app.inject({ url: ROUTES.metrics })).body);
    expect(valueOf(samples, 'job_queue_jobs', { kind: 'replay', state: 'queued' })).toBe(3);
    expect(valueOf(samples, 'job_queue_jobs', { kind: 'thumbnail', state: 'queued' })).toBe(1);
    expect(valueOf(samples, 'job_queue_jobs', { kind: 'replay', state: 'running' })).toBe(0);
    await app.db.delete(jobs);
  });

  it('count each attempt by kind and outcome, with its duration', async () => {
    const registry = new Registry();
    const worker = new JobWorker({
      db: app.db,
      handlers: {
        quick: { run: async () => new Promise((resolve) => setTimeout(resolve, 50)) },
        broken: {
          run: async () => {
            throw new PermanentJobError('broken on purpose');
          },
        },
      },
      concurrency: 2,
      leaseMs: 60_000,
      pollMs: 20,
      retryDelayMs: 0,
      log: quiet,
      meter: jobMetrics(registry, app.db),
    });
    for (let i = 0; i < 2; i += 1) await enqueueJob(app.db, 'quick', { i });
    await enqueueJob(app.db, 'broken', {});
    worker.start();
    try {
      await until(async () => {
        const rows = await app.db.select({ state: jobs.state }).from(jobs);
        return rows.every((row) => row.state === 'done' || row.state === 'failed');
      });
    } finally {
      await worker.stop();
    }
    const samples = parsePrometheusText(await registry.metrics());
    expect(valueOf(samples, 'job_attempts_total', { kind: 'quick', outcome: 'done' })).toBe(2);
    expect(valueOf(samples, 'job_attempts_total', { kind: 'broken', outcome: 'failed' })).toBe(1);
    expect(valueOf(samples, 'job_duration_seconds_count', { kind: 'quick', outcome: 'done' })).toBe(2);
    expect(
      valueOf(samples, 'job_duration_seconds_sum', { kind: 'quick', outcome: 'done' }),
    ).toBeGreaterThanOrEqual(0.09);
  });
});
