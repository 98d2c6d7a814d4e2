import type { FastifyInstance } from 'fastify';
import type { JobTuning } from '../tuning.ts';
import { jobMetrics } from './job-metrics.ts';
import { type JobHandler, JobWorker } from './job-worker.ts';

export const DEFAULT_JOB_TUNING: JobTuning = {
  leaseMs: 60_000,
  pollMs: 2_000,
  retryDelayMs: 30_000,
  retryMaxMs: 30 * 60_000,
  stallMinMs: 60_000,
  stallMaxMs: 10 * 60_000,
  spaceCheckMs: 15_000,
};

/** Each domain with jobs gives its handlers by kind (asked only when this process runs jobs). */
export type JobSource = (app: FastifyInstance) => Promise<Record<string, JobHandler>>;

/**
 * Runs the database queue's jobs in this process (JOB_CONCURRENCY at once, none when 0) from the moment the
 * server is ready; on close the running jobs are aborted and given back to the queue before the database closes.
 */
export async function registerJobs(app: FastifyInstance, ...sources: JobSource[]): Promise<void> {
  const { jobConcurrency, jobs } = app.config;
  // The queue's counts are everyone's: a server that runs no jobs still reports them.
  const meter = jobMetrics(app.metrics, app.db);
  if (jobConcurrency === 0) return;
  const handlers: Record<string, JobHandler> = {};
  for (const source of sources) Object.assign(handlers, await source(app));
  const worker = new JobWorker({
    db: app.db,
    handlers,
    concurrency: jobConcurrency,
    ...DEFAULT_JOB_TUNING,
    ...jobs,
    log: app.log.child({ module: 'jobs' }),
    meter,
  });
  app.addHook('onReady', async () => worker.start());
  // preClose runs before every onClose hook, so the database is still open to give the jobs back.
  app.addHook('preClose', async () => worker.stop());
}
