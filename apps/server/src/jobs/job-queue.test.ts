import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import { jobs } from '../db/schema.ts';
import {
  claimJob,
  completeJob,
  enqueueJob,
  failJob,
  hurryJobs,
  releaseJob,
  renewLease,
} from './job-queue.ts';

let app: FastifyInstance;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const row = async (id: number) => (await app.db.select().from(jobs).where(eq(jobs.id, id)))[0];

beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.db.delete(jobs);
});

describe('job queue', () => {
  it('keeps one queued or running job per key, and takes a new one once it is done', async () => {
    const first = await enqueueJob(app.db, 'test', { n: 1 }, { key: 'k' });
    expect(first).toEqual(expect.any(Number));
    expect(await enqueueJob(app.db, 'test', { n: 2 }, { key: 'k' })).toBeNull();
    const job = await claimJob(app.db, ['test'], 'w1', 60_000);
    expect(job?.id).toBe(first);
    expect(await enqueueJob(app.db, 'test', { n: 3 }, { key: 'k' })).toBeNull();
    expect(await completeJob(app.db, job?.id ?? 0, 'w1')).toBe(true);
    expect(await enqueueJob(app.db, 'test', { n: 4 }, { key: 'k' })).toEqual(expect.any(Number));
  });

  it('claims only due jobs of the asked kinds, oldest first, and counts each claim as an attempt', async () => {
    const later = await enqueueJob(app.db, 'test', {}, { runAt: new Date(Date.now() + 60_000) });
    const other = await enqueueJob(app.db, 'other', {});
    const a = await enqueueJob(app.db, 'test', { a: 1 });
    const b = await enqueueJob(app.db, 'test', { b: 1 });
    const claimed = await claimJob(app.db, ['test'], 'w1', 60_000);
    expect(claimed).toMatchObject({
      id: a,
      state: 'running',
      attempts: 1,
      lockedBy: 'w1',
      payload: { a: 1 },
    });
    expect((await claimJob(app.db, ['test'], 'w1', 60_000))?.id).toBe(b);
    expect(await claimJob(app.db, ['test'], 'w1', 60_000)).toBeNull();
    expect((await row(later ?? 0))?.state).toBe('queued');
    expect((await row(other ?? 0))?.state).toBe('queued');
    expect(await claimJob(app.db, [], 'w1', 60_000)).toBeNull();
  });

  it('gives a job whose worker died to another worker once its lease runs out', async () => {
    const id = await enqueueJob(app.db, 'test', {});
    const dead = await claimJob(app.db, ['test'], 'dead', 150);
    expect(dead?.id).toBe(id);
    // While the lease holds, nobody else gets it.
    expect(await claimJob(app.db, ['test'], 'alive', 60_000)).toBeNull();
    await sleep(300);
    const again = await claimJob(app.db, ['test'], 'alive', 60_000);
    expect(again).toMatchObject({ id, attempts: 2, lockedBy: 'alive' });
    // The dead worker's late writes no longer count.
    expect(await renewLease(app.db, id ?? 0, 'dead', 60_000)).toBe(false);
    expect(await completeJob(app.db, id ?? 0, 'dead')).toBe(false);
    expect(
      await failJob(app.db, dead ?? { id: 0, attempts: 1, maxAttempts: 3 }, 'dead', 'x', { retryDelayMs: 0 }),
    ).toBe('lost');
    expect(await completeJob(app.db, id ?? 0, 'alive')).toBe(true);
    expect(await row(id ?? 0)).toMatchObject({ state: 'done', progress: 100, lockedBy: null });
  });

  it('renews a lease, so a long job is not taken while its worker lives', async () => {
    const id = await enqueueJob(app.db, 'test', {});
    await claimJob(app.db, ['test'], 'w1', 200);
    for (let i = 0; i < 4; i += 1) {
      await sleep(100);
      expect(await renewLease(app.db, id ?? 0, 'w1', 200, 10 * (i + 1))).toBe(true);
      expect(await claimJob(app.db, ['test'], 'w2', 200)).toBeNull();
    }
    expect((await row(id ?? 0))?.progress).toBe(40);
  });

  it('retries a failed job after a delay until its attempts are spent, then fails it', async () => {
    const id = await enqueueJob(app.db, 'test', {}, { maxAttempts: 2 });
    const first = await claimJob(app.db, ['test'], 'w1', 60_000);
    expect(
      await failJob(app.db, first ?? { id: 0, attempts: 0, maxAttempts: 0 }, 'w1', 'boom 1', {
        retryDelayMs: 200,
      }),
    ).toBe('retry');
    expect(await row(id ?? 0)).toMatchObject({ state: 'queued', error: 'boom 1', lockedBy: null });
    expect(await claimJob(app.db, ['test'], 'w1', 60_000)).toBeNull();
    await sleep(300);
    const second = await claimJob(app.db, ['test'], 'w1', 60_000);
    expect(second?.attempts).toBe(2);
    expect(
      await failJob(app.db, second ?? { id: 0, attempts: 0, maxAttempts: 0 }, 'w1', 'boom 2', {
        retryDelayMs: 0,
      }),
    ).toBe('failed');
    expect(await row(id ?? 0)).toMatchObject({ state: 'failed', error: 'boom 2' });
    expect(await claimJob(app.db, ['test'], 'w1', 60_000)).toBeNull();
  });

  it('retries after a delay the job gives, and hurries queued jobs (of one key) when their cause is gone', async () => {
    const [a, b] = [
      await enqueueJob(app.db, 'test', {}, { key: 'a', maxAttempts: 40 }),
      await enqueueJob(app.db, 'test', {}, { key: 'b', maxAttempts: 40 }),
    ];
    for (let i = 0; i < 2; i += 1) {
      const job = await claimJob(app.db, ['test'], 'w1', 60_000);
      if (!job) throw new Error('nothing claimed');
      const options = { retryDelayMs: 10, delayMs: 3_600_000 };
      expect(await failJob(app.db, job, 'w1', 'disk full', options)).toBe('retry');
    }
    const waitMs = ((await row(a ?? 0))?.runAt.getTime() ?? 0) - Date.now();
    expect(waitMs).toBeGreaterThan(3_500_000);
    expect(await claimJob(app.db, ['test'], 'w1', 60_000)).toBeNull();
    expect(await hurryJobs(app.db, 'test', 'b')).toBe(1);
    expect((await claimJob(app.db, ['test'], 'w1', 60_000))?.id).toBe(b);
    expect(await hurryJobs(app.db, 'test')).toBe(1);
    expect((await claimJob(app.db, ['test'], 'w1', 60_000))?.id).toBe(a);
    expect(await hurryJobs(app.db, 'test')).toBe(0);
  });

  it('fails a permanent failure at once', async () => {
    const id = await enqueueJob(app.db, 'test', {});
    const job = await claimJob(app.db, ['test'], 'w1', 60_000);
    const outcome = await failJob(app.db, job ?? { id: 0, attempts: 0, maxAttempts: 0 }, 'w1', 'no input', {
      retryDelayMs: 0,
      permanent: true,
    });
    expect(outcome).toBe('failed');
    expect((await row(id ?? 0))?.state).toBe('failed');
  });

  it('a released job is queued at once and its attempt does not count', async () => {
    const id = await enqueueJob(app.db, 'test', {});
    await claimJob(app.db, ['test'], 'w1', 60_000);
    expect(await releaseJob(app.db, id ?? 0, 'w1')).toBe(true);
    expect(await row(id ?? 0)).toMatchObject({ state: 'queued', attempts: 0, lockedBy: null });
    expect((await claimJob(app.db, ['test'], 'w2', 60_000))?.attempts).toBe(1);
  });

  it('racing claims never hand one job to two workers', async () => {
    const ids = new Set<number>();
    for (let i = 0; i < 8; i += 1) ids.add((await enqueueJob(app.db, 'test', { i })) ?? 0);
    // 24 claims at once from 24 workers: on PostgreSQL they run on separate pooled connections.
    const claims = await Promise.all(
      Array.from({ length: 24 }, (_, i) => claimJob(app.db, ['test'], `w${i}`, 60_000)),
    );
    const won = claims.filter((job) => job !== null).map((job) => job.id);
    expect(won.sort()).toEqual([...ids].sort());
    expect(new Set(won).size).toBe(8);
  });
});
