import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Database } from '../db/database.ts';
import type { JobMeter, JobOutcome } from './job-metrics.ts';
import { claimJob, completeJob, failJob, type Job, releaseJob, renewLease, repeatJob } from './job-queue.ts';

/** What a running job gets besides its payload. */
export type JobContext = {
  /** Aborted when the worker stops or loses the job's lease: stop at once (kill child processes). */
  signal: AbortSignal;
  /** Which attempt this is, from 1. */
  attempt: number;
  /** Records the job's progress (0-100) and renews its lease. */
  progress(percent: number): Promise<void>;
};

/** What a run may answer: its work goes on, so the job is queued again after `againInMs` (a fresh start). */
export type JobRepeat = { againInMs: number };

/** One kind of job: how to run it, and what to do once it has failed for good. */
export type JobHandler = {
  run(payload: unknown, context: JobContext): Promise<void | JobRepeat>;
  failed?(payload: unknown, error: unknown): Promise<void>;
};

/** A failure that another attempt cannot mend (missing input, invalid payload): no retry. */
export class PermanentJobError extends Error {}

/** A failure to try again after `delayMs` (the job's own backoff) instead of the worker's retry delay. */
export class RetryLaterError extends Error {
  readonly delayMs: number;

  constructor(message: string, delayMs: number) {
    super(message);
    this.delayMs = delayMs;
  }
}

/** Logs what happens to jobs; Fastify's logger fits. */
export type JobLog = {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
};

export type JobWorkerOptions = {
  db: Database;
  handlers: Record<string, JobHandler>;
  /** Jobs run at once by this worker. */
  concurrency: number;
  /** How long a claim holds without renewal; renewed every third of it while the job runs. */
  leaseMs: number;
  /** How often to look for due jobs while idle. */
  pollMs: number;
  /** Delay before a retry, times the attempts so far. */
  retryDelayMs: number;
  log: JobLog;
  /** Counts attempts and their durations (the metrics); none by default. */
  meter?: JobMeter;
  workerId?: string;
};

/**
 * Claims and runs jobs from the database queue, at most `concurrency` at once. A running job's lease is renewed
 * while it runs; a job whose lease is lost (this process stalled past it and another worker took the job) is
 * aborted here. `stop()` aborts running jobs and gives them back to the queue, so the next start resumes them;
 * a worker that dies without stopping leaves leases that run out, and any worker then claims those jobs again.
 */
export class JobWorker {
  readonly workerId: string;
  readonly #options: JobWorkerOptions;
  readonly #running = new Map<number, { controller: AbortController; done: Promise<void> }>();
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;
  #again = false;
  #stopped = true;

  constructor(options: JobWorkerOptions) {
    this.#options = options;
    this.workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  /** Starts polling for due jobs. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.wake();
  }

  /** Looks for due jobs now (instead of at the next poll). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#ticking) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#ticking = true;
    void this.#tick().finally(() => {
      this.#ticking = false;
      if (this.#stopped) return;
      if (this.#again) {
        this.#again = false;
        this.wake();
        return;
      }
      this.#timer = setTimeout(() => this.wake(), this.#options.pollMs);
      this.#timer.unref();
    });
  }

  /** Stops claiming, aborts the running jobs and waits until each has ended and been given back. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    for (const { controller } of this.#running.values()) controller.abort(new Error('worker stopping'));
    await Promise.all([...this.#running.values()].map((entry) => entry.done));
  }

  /** Jobs running now. */
  get runningCount(): number {
    return this.#running.size;
  }

  async #tick(): Promise<void> {
    const { db, handlers, concurrency, leaseMs, log } = this.#options;
    const kinds = Object.keys(handlers);
    while (!this.#stopped && this.#running.size < concurrency) {
      let job: Job | null;
      try {
        job = await claimJob(db, kinds, this.workerId, leaseMs);
      } catch (error) {
        // The database may be down for a moment: the next poll tries again.
        log.warn({ err: error }, 'claiming a job failed');
        return;
      }
      if (!job) return;
      const controller = new AbortController();
      const claimed = job;
      const done = this.#run(claimed, controller).finally(() => {
        this.#running.delete(claimed.id);
        this.wake();
      });
      this.#running.set(claimed.id, { controller, done });
    }
  }

  async #run(job: Job, controller: AbortController): Promise<void> {
    const { db, handlers, leaseMs, log } = this.#options;
    const handler = handlers[job.kind];
    const meta = { jobId: job.id, kind: job.kind, attempt: job.attempts };
    const startedAt = performance.now();
    const finished = (outcome: JobOutcome) =>
      this.#options.meter?.finished(job.kind, outcome, (performance.now() - startedAt) / 1000);
    let lost = false;
    const renew = async (progress?: number) => {
      if (lost) return;
      if (!(await renewLease(db, job.id, this.workerId, leaseMs, progress))) {
        lost = true;
        controller.abort(new Error('lease lost'));
      }
    };
    const renewal = setInterval(() => {
      renew().catch((error: unknown) => log.warn({ ...meta, err: error }, 'renewing a job lease failed'));
    }, leaseMs / 3);
    try {
      if (!handler) throw new PermanentJobError(`no handler for ${job.kind}`);
      if (job.attempts > job.maxAttempts) {
        // Claimed again after its lease ran out more often than it may be tried: it kills its worker.
        throw new PermanentJobError('interrupted on every attempt');
      }
      log.info(meta, 'job started');
      const answer = await handler.run(job.payload, {
        signal: controller.signal,
        attempt: job.attempts,
        progress: (percent) => renew(percent),
      });
      if (answer) {
        if (await repeatJob(db, job.id, this.workerId, answer.againInMs)) {
          log.info({ ...meta, againInMs: answer.againInMs }, 'job done for now');
          finished('repeat');
        } else {
          log.warn(meta, 'job finished after its lease was lost');
          finished('lost');
        }
      } else if (await completeJob(db, job.id, this.workerId)) {
        log.info(meta, 'job done');
        finished('done');
      } else {
        log.warn(meta, 'job finished after its lease was lost');
        finished('lost');
      }
    } catch (error) {
      finished(await this.#settle(job, handler, error, lost));
    } finally {
      clearInterval(renewal);
    }
  }

  /** Records a failed attempt; resolves how it ended. */
  async #settle(
    job: Job,
    handler: JobHandler | undefined,
    error: unknown,
    lost: boolean,
  ): Promise<JobOutcome> {
    const { db, retryDelayMs, log } = this.#options;
    const meta = { jobId: job.id, kind: job.kind, attempt: job.attempts };
    try {
      if (lost) {
        log.warn(meta, 'job aborted: its lease was lost to another worker');
        return 'lost';
      }
      if (this.#stopped) {
        await releaseJob(db, job.id, this.workerId);
        log.info(meta, 'job given back: the worker is stopping');
        return 'released';
      }
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof PermanentJobError;
      const delayMs = error instanceof RetryLaterError ? error.delayMs : undefined;
      const outcome = await failJob(db, job, this.workerId, message, { retryDelayMs, delayMs, permanent });
      log.warn({ ...meta, err: error, outcome }, 'job failed');
      if (outcome === 'failed') await handler?.failed?.(job.payload, error);
      return outcome;
    } catch (settleError) {
      // The job stays running until its lease runs out; then it is claimed again.
      log.error({ ...meta, err: settleError }, 'recording a job failure failed');
      return 'retry';
    }
  }
}
