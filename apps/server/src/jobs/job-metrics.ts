import { inArray, sql } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/database.ts';
import { jobs } from '../db/schema.ts';
import { timedCounter } from '../plugins/metrics.ts';

/**
 * How an attempt at a job ended here: done, done for now and queued again, to be tried again, failed for good,
 * lost, or given back.
 */
export type JobOutcome = 'done' | 'repeat' | 'retry' | 'failed' | 'lost' | 'released';

/** What the job worker tells the metrics when an attempt ends. */
export type JobMeter = { finished(kind: string, outcome: JobOutcome, seconds: number): void };

/**
 * The job queue's metrics on `registry`: jobs queued and running by kind (read from the database at each
 * scrape: the queue is shared by every server), and attempts run here by kind and outcome with their durations.
 */
export function jobMetrics(registry: Registry, db: Database): JobMeter {
  new Gauge({
    name: 'job_queue_jobs',
    help: 'Jobs in the queue by kind and state (queued or running), as the database holds them',
    labelNames: ['kind', 'state'],
    registers: [registry],
    async collect() {
      const rows = await db
        .select({ kind: jobs.kind, state: jobs.state, count: sql<number>`count(*)::int` })
        .from(jobs)
        .where(inArray(jobs.state, ['queued', 'running']))
        .groupBy(jobs.kind, jobs.state);
      this.reset();
      for (const row of rows) this.set({ kind: row.kind, state: row.state }, Number(row.count));
    },
  });
  const attempts = timedCounter(registry, ['kind', 'outcome'], {
    total: ['job_attempts_total', 'Job attempts run by this server, by kind and outcome'],
    seconds: ['job_duration_seconds', 'How long job attempts ran on this server, by kind and outcome'],
    buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
  });
  return { finished: (kind, outcome, seconds) => attempts({ kind, outcome }, seconds) };
}
