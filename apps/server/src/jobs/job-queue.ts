import { and, eq, gt, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/database.ts';
import { jobs } from '../db/schema.ts';

/** A row of the queue. */
export type Job = typeof jobs.$inferSelect;

/** What a failed attempt turned into: tried again later, failed for good, or no longer this worker's. */
export type FailOutcome = 'retry' | 'failed' | 'lost';

const afterMs = (ms: number) => sql`now() + ${Math.max(0, Math.round(ms))} * interval '1 millisecond'`;
const ownedBy = (id: number, workerId: string) =>
  and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.state, 'running'));

/**
 * Adds a job. With a `key`, a job of that key already queued or running makes this a no-op (returns null), so
 * enqueueing twice never processes twice. Takes a transaction, so a caller can enqueue with its own writes.
 */
export async function enqueueJob(
  db: Executor,
  kind: string,
  payload: unknown,
  options: { key?: string; maxAttempts?: number; runAt?: Date } = {},
): Promise<number | null> {
  const [row] = await db
    .insert(jobs)
    .values({
      kind,
      payload,
      key: options.key ?? null,
      maxAttempts: options.maxAttempts ?? 3,
      ...(options.runAt ? { runAt: options.runAt } : {}),
    })
    .onConflictDoNothing({ target: jobs.key, where: sql`state in ('queued', 'running')` })
    .returning({ id: jobs.id });
  return row?.id ?? null;
}

/**
 * Claims the oldest due job of these kinds for `workerId` for `leaseMs`: a queued job whose time has come, or
 * a running one whose lease ran out (its worker died). One statement; `FOR UPDATE SKIP LOCKED` makes racing
 * workers (processes, or callers on one PGlite) take different jobs. Each claim counts as an attempt.
 */
export async function claimJob(
  db: Database,
  kinds: readonly string[],
  workerId: string,
  leaseMs: number,
): Promise<Job | null> {
  if (kinds.length === 0) return null;
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        inArray(jobs.kind, [...kinds]),
        or(
          and(eq(jobs.state, 'queued'), lte(jobs.runAt, sql`now()`)),
          and(eq(jobs.state, 'running'), lt(jobs.lockedUntil, sql`now()`)),
        ),
      ),
    )
    .orderBy(jobs.runAt, jobs.id)
    .limit(1)
    .for('update', { skipLocked: true });
  const [job] = await db
    .update(jobs)
    .set({
      state: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      lockedBy: workerId,
      lockedUntil: afterMs(leaseMs),
      updatedAt: sql`now()`,
    })
    .where(eq(jobs.id, sql`(${due})`))
    .returning();
  return job ?? null;
}

/** Extends a running job's lease (and records its progress); false when the job is no longer this worker's. */
export async function renewLease(
  db: Database,
  id: number,
  workerId: string,
  leaseMs: number,
  progress?: number,
): Promise<boolean> {
  const renewed = await db
    .update(jobs)
    .set({
      lockedUntil: afterMs(leaseMs),
      updatedAt: sql`now()`,
      ...(progress === undefined ? {} : { progress: Math.max(0, Math.min(100, Math.round(progress))) }),
    })
    .where(ownedBy(id, workerId))
    .returning({ id: jobs.id });
  return renewed.length > 0;
}

/** Marks a job done; false when it was no longer this worker's (its lease ran out and another took it). */
export async function completeJob(db: Database, id: number, workerId: string): Promise<boolean> {
  const done = await db
    .update(jobs)
    .set({ state: 'done', progress: 100, lockedBy: null, lockedUntil: null, updatedAt: sql`now()` })
    .where(ownedBy(id, workerId))
    .returning({ id: jobs.id });
  return done.length > 0;
}

/**
 * Records a failed attempt: queued again after `delayMs` (by default `retryDelayMs` times the attempts so far)
 * while attempts remain (and the failure is not `permanent`), else failed for good.
 */
export async function failJob(
  db: Database,
  job: Pick<Job, 'id' | 'attempts' | 'maxAttempts'>,
  workerId: string,
  error: string,
  options: { retryDelayMs: number; delayMs?: number; permanent?: boolean },
): Promise<FailOutcome> {
  const retry = !options.permanent && job.attempts < job.maxAttempts;
  const updated = await db
    .update(jobs)
    .set({
      state: retry ? 'queued' : 'failed',
      ...(retry ? { runAt: afterMs(options.delayMs ?? options.retryDelayMs * job.attempts) } : {}),
      error: error.slice(0, 2000),
      lockedBy: null,
      lockedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(ownedBy(job.id, workerId))
    .returning({ id: jobs.id });
  if (updated.length === 0) return 'lost';
  return retry ? 'retry' : 'failed';
}

/**
 * Queues a job that did its part again after `delayMs` (work that goes on while something lasts, such as a
 * lecture's replay made ahead): a fresh start, its attempts counted from 0.
 */
export async function repeatJob(
  db: Database,
  id: number,
  workerId: string,
  delayMs: number,
): Promise<boolean> {
  const repeated = await db
    .update(jobs)
    .set({
      state: 'queued',
      attempts: 0,
      runAt: afterMs(delayMs),
      error: null,
      lockedBy: null,
      lockedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(ownedBy(id, workerId))
    .returning({ id: jobs.id });
  return repeated.length > 0;
}

/** Gives a running job back (its worker is stopping): queued at once, and this attempt does not count. */
export async function releaseJob(db: Database, id: number, workerId: string): Promise<boolean> {
  const released = await db
    .update(jobs)
    .set({
      state: 'queued',
      attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
      runAt: sql`now()`,
      lockedBy: null,
      lockedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(ownedBy(id, workerId))
    .returning({ id: jobs.id });
  return released.length > 0;
}

/** Makes the queued jobs of `kind` (or the one of `key`) due now: the cause of their failures is gone. */
export async function hurryJobs(db: Database, kind: string, key?: string): Promise<number> {
  const hurried = await db
    .update(jobs)
    .set({ runAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(jobs.kind, kind),
        eq(jobs.state, 'queued'),
        gt(jobs.runAt, sql`now()`),
        key === undefined ? undefined : eq(jobs.key, key),
      ),
    )
    .returning({ id: jobs.id });
  return hurried.length;
}
