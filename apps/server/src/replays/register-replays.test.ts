import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { insertClass } from '../../test/classes.ts';
import { buildTestApp, createUser } from '../../test/helper.ts';
import { jobs, liveSessions } from '../db/schema.ts';
import { enqueueReplay } from './enqueue-replay.ts';
import { FFMPEG_MISSING, markWaitingForFfmpeg } from './register-replays.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('without ffmpeg a recording waits raw: the job stays queued and the session says why', async () => {
  let sessionId = 0;
  const noFfmpeg = { ffmpegPath: path.join(os.tmpdir(), 'no-such-ffmpeg'), jobConcurrency: 1 };
  const app = await buildTestApp({ ...noFfmpeg, jobs: { pollMs: 20 } }, async (app) => {
    // A session that ended (and was queued) while this server was down.
    const teacher = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    const [row] = await app.db
      .insert(liveSessions)
      .values({ classId, mediaKey: 'k1', nodeId: 'm', startedAt: new Date(), recordingState: 'recording' })
      .returning({ id: liveSessions.id });
    sessionId = row?.id ?? 0;
    await enqueueReplay(app.db, sessionId);
  });
  try {
    const session = async () =>
      (await app.db.select().from(liveSessions).where(eq(liveSessions.id, sessionId)))[0];
    for (let i = 0; i < 100 && (await session())?.recordingError === null; i += 1) await sleep(20);
    expect(await session()).toMatchObject({ recordingState: 'processing', recordingError: FFMPEG_MISSING });
    await sleep(200);
    const [job] = await app.db.select().from(jobs);
    expect(job).toMatchObject({ state: 'queued', attempts: 0 });
    // Marking again changes nothing; a later start with ffmpeg clears the reason when it processes the job.
    expect(await markWaitingForFfmpeg(app.db)).toBe(0);
  } finally {
    await app.close();
  }
});

it('enqueueReplay queues only recorded sessions, once, and takes a failed one again', async () => {
  const app = await buildTestApp();
  try {
    const teacher = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    const insert = async (mediaKey: string, recordingState: string) => {
      const [row] = await app.db
        .insert(liveSessions)
        .values({ classId, mediaKey, nodeId: 'm', startedAt: new Date(), recordingState })
        .returning({ id: liveSessions.id });
      return row?.id ?? 0;
    };
    const state = async (id: number) =>
      (await app.db.select().from(liveSessions).where(eq(liveSessions.id, id)))[0]?.recordingState;
    expect(await enqueueReplay(app.db, await insert('a', 'none'))).toBeNull();
    expect(await enqueueReplay(app.db, await insert('b', 'ready'))).toBeNull();
    expect(await enqueueReplay(app.db, 9_999)).toBeNull();
    const recorded = await insert('c', 'recording');
    expect(await enqueueReplay(app.db, recorded)).toEqual(expect.any(Number));
    expect(await state(recorded)).toBe('processing');
    expect(await enqueueReplay(app.db, recorded)).toBeNull();
    const failed = await insert('d', 'failed');
    await app.db.update(liveSessions).set({ recordingError: 'x' }).where(eq(liveSessions.id, failed));
    // In the caller's transaction, with its other writes.
    const id = await app.db.transaction((tx) => enqueueReplay(tx, failed));
    expect(id).toEqual(expect.any(Number));
    expect((await app.db.select().from(liveSessions).where(eq(liveSessions.id, failed)))[0]).toMatchObject({
      recordingState: 'processing',
      recordingError: null,
      recordingProgress: 0,
    });
    const keys = (await app.db.select().from(jobs)).map((j) => j.key);
    expect(keys.sort()).toEqual([`replay:${failed}`, `replay:${recorded}`].sort());
  } finally {
    await app.close();
  }
});
