import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import { jobs } from '../db/schema.ts';
import { claimJob, enqueueJob } from './job-queue.ts';
import { type JobHandler, type JobLog, JobWorker, PermanentJobError } from './job-worker.ts';

let app: FastifyInstance;
const quiet: JobLog = { info: () => {}, warn: () => {}, error: () => {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const row = async (id: number) => (await app.db.select().from(jobs).where(eq(jobs.id, id)))[0];

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

const worker = (
  handlers: Record<string, JobHandler>,
  overrides: { leaseMs?: number; concurrency?: number } = {},
) =>
  new JobWorker({
    db: app.db,
    handlers,
    concurrency: overrides.concurrency ?? 1,
    leaseMs: overrides.leaseMs ?? 60_000,
    pollMs: 20,
    retryDelayMs: 0,
    log: quiet,
  });

beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.db.delete(jobs);
});

describe('JobWorker', () => {
  it('a job that answers "again" is queued again later, its attempts from 0, until it answers nothing', async () => {
    const runs: { attempt: number; at: number }[] = [];
    const handler: JobHandler = {
      async run(_payload, { attempt }) {
        runs.push({ attempt, at: Date.now() });
        return runs.length < 3 ? { againInMs: 300 } : undefined;
      },
    };
    const id = (await enqueueJob(app.db, 'test', {}, { key: 'again:1', maxAttempts: 1 })) ?? 0;
    const w = worker({ test: handler });
    w.start();
    await until(async () => (await row(id))?.state === 'queued' && runs.length === 1);
    // While it waits for its next round its key is taken: queueing it again adds nothing.
    expect(await enqueueJob(app.db, 'test', {}, { key: 'again:1' })).toBeNull();
    expect(await row(id)).toMatchObject({ attempts: 0, lockedBy: null, error: null });
    await until(async () => (await row(id))?.state === 'done', 5_000);
    await w.stop();
    // Three rounds, each a first attempt (a job of one attempt), each at least 300 ms after the one before.
    expect(runs.map((r) => r.attempt)).toEqual([1, 1, 1]);
    expect((runs[1]?.at ?? 0) - (runs[0]?.at ?? 0)).toBeGreaterThanOrEqual(250);
    expect((runs[2]?.at ?? 0) - (runs[1]?.at ?? 0)).toBeGreaterThanOrEqual(250);
  });

  it('two workers racing run every job once and never one job twice at once', async () => {
    const running = new Set<unknown>();
    const runs: unknown[] = [];
    let overlap = 0;
    const handler: JobHandler = {
      async run(payload) {
        const n = (payload as { n: number }).n;
        if (running.has(n)) overlap += 1;
        running.add(n);
        runs.push(n);
        await sleep(15);
        running.delete(n);
      },
    };
    for (let n = 0; n < 16; n += 1) await enqueueJob(app.db, 'test', { n });
    const workers = [
      worker({ test: handler }, { concurrency: 2 }),
      worker({ test: handler }, { concurrency: 2 }),
    ];
    for (const w of workers) w.start();
    await until(async () => (await app.db.select().from(jobs).where(eq(jobs.state, 'done'))).length === 16);
    await Promise.all(workers.map((w) => w.stop()));
    expect(overlap).toBe(0);
    expect(runs.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, n) => n));
  });

  it('stop aborts a running job and gives it back; the next worker runs it from the start', async () => {
    let aborted = false;
    const slow: JobHandler = {
      run: (_payload, { signal }) =>
        new Promise<void>((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('killed'));
          });
        }),
    };
    const id = (await enqueueJob(app.db, 'test', {})) ?? 0;
    const first = worker({ test: slow });
    first.start();
    await until(() => first.runningCount === 1);
    await first.stop();
    expect(aborted).toBe(true);
    expect(await row(id)).toMatchObject({ state: 'queued', attempts: 0, lockedBy: null });

    let ran = 0;
    const second = worker({ test: { run: async () => void (ran += 1) } });
    second.start();
    await until(async () => (await row(id))?.state === 'done');
    await second.stop();
    expect(ran).toBe(1);
  });

  it('a job whose worker died (no stop, no renewal) is run by another worker after its lease', async () => {
    const id = (await enqueueJob(app.db, 'test', { x: 1 })) ?? 0;
    // The crashed process: it claimed the job with a short lease and never came back.
    expect((await claimJob(app.db, ['test'], 'crashed', 300))?.id).toBe(id);
    const payloads: unknown[] = [];
    const heir = worker({ test: { run: async (payload) => void payloads.push(payload) } });
    heir.start();
    await sleep(100);
    expect(payloads).toEqual([]);
    await until(async () => (await row(id))?.state === 'done');
    await heir.stop();
    expect(payloads).toEqual([{ x: 1 }]);
    expect((await row(id))?.attempts).toBe(2);
  });

  it('a job that outlives its lease without renewal is aborted when another worker has taken it', async () => {
    const id = (await enqueueJob(app.db, 'test', {})) ?? 0;
    let abortedReason = '';
    const stuck = worker(
      {
        test: {
          run: (_payload, { signal }) =>
            new Promise<void>((_resolve, reject) => {
              signal.addEventListener('abort', () => {
                abortedReason = String((signal.reason as Error).message);
                reject(signal.reason as Error);
              });
            }),
        },
      },
      { leaseMs: 300 },
    );
    stuck.start();
    await until(() => stuck.runningCount === 1);
    // Another worker takes the job over as if the lease had run out (a stalled process).
    await app.db.update(jobs).set({ lockedBy: 'other' }).where(eq(jobs.id, id));
    await until(() => stuck.runningCount === 0);
    expect(abortedReason).toBe('lease lost');
    expect(await row(id)).toMatchObject({ state: 'running', lockedBy: 'other' });
    await stuck.stop();
  });

  it('retries a failing job, then calls its failed hook once; a permanent error is not retried', async () => {
    const failures: string[] = [];
    let attempts = 0;
    const flaky: JobHandler = {
      run: async (payload) => {
        attempts += 1;
        if ((payload as { permanent: boolean }).permanent) throw new PermanentJobError('bad input');
        throw new Error(`boom ${attempts}`);
      },
      failed: async (_payload, error) => void failures.push((error as Error).message),
    };
    const id = (await enqueueJob(app.db, 'test', { permanent: false }, { maxAttempts: 3 })) ?? 0;
    const w = worker({ test: flaky });
    w.start();
    // The failed hook runs after the job's state is written: a busy machine shows the state first.
    await until(async () => (await row(id))?.state === 'failed' && failures.length > 0);
    expect(attempts).toBe(3);
    expect(failures).toEqual(['boom 3']);

    attempts = 0;
    const permanent = (await enqueueJob(app.db, 'test', { permanent: true }, { maxAttempts: 3 })) ?? 0;
    await until(async () => (await row(permanent))?.state === 'failed' && failures.length > 1);
    await w.stop();
    expect(attempts).toBe(1);
    expect(failures).toEqual(['boom 3', 'bad input']);
  });

  it('a job interrupted on every attempt (it kills its worker) fails instead of looping', async () => {
    const id = (await enqueueJob(app.db, 'test', {}, { maxAttempts: 2 })) ?? 0;
    for (const dead of ['crash1', 'crash2']) {
      await until(async () => (await claimJob(app.db, ['test'], dead, 50)) !== null);
    }
    await sleep(100);
    const failures: unknown[] = [];
    let ran = false;
    const w = worker({
      test: { run: async () => void (ran = true), failed: async (p) => void failures.push(p) },
    });
    w.start();
    await until(async () => (await row(id))?.state === 'failed');
    await w.stop();
    expect(ran).toBe(false);
    expect(failures).toEqual([{}]);
    expect((await row(id))?.error).toBe('interrupted on every attempt');
  });
});
