import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { insertClass } from '../../test/classes.ts';
import { buildTestApp, createUser } from '../../test/helper.ts';
import { FakeNode, room } from '../../test/media-node-report.ts';
import { jobs, liveSessions } from '../db/schema.ts';
import { enqueueJob } from '../jobs/job-queue.ts';

it('a recorded session that ends gets its replay job; one not recorded gets none', async () => {
  const app = await buildTestApp();
  try {
    const teacher = await createUser(app);
    const recorded = room(await insertClass(app, teacher.id));
    const unrecorded = room(await insertClass(app, teacher.id), { recording: false });
    const node = new FakeNode(app);
    await node.report({ rooms: [recorded, unrecorded] });
    const [session] = await app.db
      .select()
      .from(liveSessions)
      .where(eq(liveSessions.mediaKey, recorded.sessionKey));
    // While it runs, the recorded one's replay is made ahead (its first round after one window); twice
    // reported, it is queued once.
    await node.report({ rooms: [recorded, unrecorded] });
    const ahead = expect.objectContaining({
      kind: 'replay-ahead',
      key: `replay-ahead:${session?.id}`,
      state: 'queued',
    });
    const live = await app.db.select().from(jobs);
    expect(live).toEqual([ahead]);
    expect(live[0]?.runAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
    await node.report({ rooms: [] });
    const queued = await app.db.select().from(jobs).orderBy(jobs.id);
    expect(queued).toEqual([
      ahead,
      expect.objectContaining({ kind: 'replay', key: `replay:${session?.id}`, state: 'queued' }),
    ]);
  } finally {
    await app.close();
  }
});

it('at start, an ended session left processing without a job gets one; one with a job is left alone', async () => {
  const ids: Record<string, number> = {};
  const app = await buildTestApp({}, async (app) => {
    // Sessions that ended while their announcement was lost (the server stopped between the two).
    const teacher = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    for (const [mediaKey, endedAt] of [
      ['lost', new Date()],
      ['queued', new Date()],
      ['open', null],
    ] as const) {
      const [row] = await app.db
        .insert(liveSessions)
        .values({
          classId,
          mediaKey,
          nodeId: 'm',
          startedAt: new Date(Date.now() - 60_000),
          endedAt,
          recordingState: endedAt ? 'processing' : 'recording',
        })
        .returning({ id: liveSessions.id });
      ids[mediaKey] = row?.id ?? 0;
    }
    await enqueueJob(app.db, 'replay', { sessionId: ids.queued }, { key: `replay:${ids.queued}` });
  });
  try {
    const keys = (await app.db.select().from(jobs)).map((job) => job.key).sort();
    expect(keys).toEqual([`replay:${ids.lost}`, `replay:${ids.queued}`].sort());
  } finally {
    await app.close();
  }
});
