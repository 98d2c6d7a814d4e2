import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ROUTES, toPath } from '@sea/contract/paths';
import { appWithTeacher, insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser } from '../../test/helper.ts';
import { FakeNode, room } from '../../test/media-node-report.ts';
import { insertSession, writeReplayFiles } from '../../test/sessions.ts';
import { classes, jobs, liveSessions, sessionParts } from '../db/schema.ts';

const { app, teacher } = await appWithTeacher();

const stateOf = async (sessionId: number) =>
  (await app.db.select().from(liveSessions).where(eq(liveSessions.id, sessionId)))[0]?.recordingState;

describe('recordings go with what they belong to', () => {
  it('a deleted class takes the replay and raw recording files of its sessions, and only those', async () => {
    const classId = await insertClass(app, teacher.id);
    const keptClass = await insertClass(app, teacher.id);
    const first = await insertSession(app, classId);
    const second = await insertSession(app, classId, { recordingState: 'processing', recordingProgress: 30 });
    const kept = await insertSession(app, keptClass);
    const files = [first, second, kept].map((session) => writeReplayFiles(app, session));
    expectOk(
      await app.inject({
        method: 'DELETE',
        url: toPath(ROUTES.classDelete, { classId }),
        headers: bearer(teacher),
      }),
    );
    for (const { dir, raw } of files.slice(0, 2)) {
      expect(fs.existsSync(dir)).toBe(false);
      expect(fs.existsSync(raw)).toBe(false);
    }
    expect(fs.existsSync(files[2]?.dir ?? '')).toBe(true);
    expect(fs.existsSync(files[2]?.raw ?? '')).toBe(true);
    expect(await stateOf(first.id)).toBe('none');
    expect(await stateOf(second.id)).toBe('none');
    expect(await stateOf(kept.id)).toBe('ready');
  });

  it('a session held in two rooms (its origin died) loses the raw recording of each', async () => {
    const classId = await insertClass(app, teacher.id);
    const session = await insertSession(app, classId, { recordingState: 'failed' });
    const firstKey = `${session.mediaKey}-origin`;
    await app.db.insert(sessionParts).values([
      { sessionId: session.id, mediaKey: firstKey, nodeId: 'origin', startedAt: session.startedAt },
      { sessionId: session.id, mediaKey: session.mediaKey, nodeId: 'edge', startedAt: new Date() },
    ]);
    const { raw } = writeReplayFiles(app, session);
    const firstRaw = path.join(app.config.recordingsDir, firstKey);
    fs.mkdirSync(firstRaw, { recursive: true });
    expectOk(
      await app.inject({
        method: 'DELETE',
        url: toPath(ROUTES.classDelete, { classId }),
        headers: bearer(teacher),
      }),
    );
    expect([fs.existsSync(firstRaw), fs.existsSync(raw)]).toEqual([false, false]);
    expect(await stateOf(session.id)).toBe('none');
  });

  it('a withdrawn teacher takes the recordings of every class they taught', async () => {
    const leaving = await createUser(app);
    const student = await createUser(app);
    const classes = [await insertClass(app, leaving.id), await insertClass(app, leaving.id)];
    await insertEnrolment(app, classes[0] ?? 0, student.id);
    const sessions = [];
    for (const classId of classes) sessions.push(await insertSession(app, classId));
    // A class the student teaches: untouched by the other teacher's withdrawal.
    const theirs = await insertSession(app, await insertClass(app, student.id));
    const files = [...sessions, theirs].map((session) => writeReplayFiles(app, session));
    expectOk(await app.inject({ method: 'DELETE', url: ROUTES.signup, headers: bearer(leaving) }));
    for (const { dir, raw } of files.slice(0, 2)) {
      expect(fs.existsSync(dir)).toBe(false);
      expect(fs.existsSync(raw)).toBe(false);
    }
    expect(fs.existsSync(files[2]?.dir ?? '')).toBe(true);
    for (const session of sessions) expect(await stateOf(session.id)).toBe('none');
  });

  it('a lecture still on when its class is deleted keeps no recording once it ends', async () => {
    const classId = await insertClass(app, teacher.id);
    const node = new FakeNode(app);
    const live = room(classId, { recording: true });
    await node.report({ rooms: [live] });
    const [session] = await app.db
      .select()
      .from(liveSessions)
      .where(eq(liveSessions.mediaKey, live.sessionKey));
    if (session === undefined) throw new Error('no session');
    const raw = writeReplayFiles(app, session).raw;
    expectOk(
      await app.inject({
        method: 'DELETE',
        url: toPath(ROUTES.classDelete, { classId }),
        headers: bearer(teacher),
      }),
    );
    // The node closes the room (the API server revoked it): the session ends, and its recording goes.
    await node.report({ closed: [{ ...live, endedAt: new Date().toISOString() }] });
    expect(await stateOf(session.id)).toBe('none');
    expect(fs.existsSync(raw)).toBe(false);
    const queued = await app.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `replay:${session.id}`));
    // Queued before the drop, the job finds nothing to make (replay-job: 'replay not needed').
    expect(queued.every((job) => job.state === 'queued' || job.state === 'done')).toBe(true);
  });
});

describe('at start', () => {
  it('removes recordings that a class deletion left behind', async () => {
    let files: { dir: string; raw: string }[] = [];
    let kept: { dir: string; raw: string } | undefined;
    const started = await buildTestApp({}, async (early) => {
      const owner = await createUser(early);
      const gone = await insertClass(early, owner.id, { deletedAt: new Date() });
      const alive = await insertClass(early, owner.id);
      const sessions = [
        await insertSession(early, gone),
        await insertSession(early, gone, { recordingState: 'failed' }),
      ];
      files = sessions.map((session) => writeReplayFiles(early, session));
      kept = writeReplayFiles(early, await insertSession(early, alive));
    });
    try {
      for (const { dir, raw } of files) {
        expect(fs.existsSync(dir)).toBe(false);
        expect(fs.existsSync(raw)).toBe(false);
      }
      expect(fs.existsSync(kept?.dir ?? '')).toBe(true);
      const states = await started.db
        .select({ state: liveSessions.recordingState, deleted: classes.deletedAt })
        .from(liveSessions)
        .innerJoin(classes, eq(classes.id, liveSessions.classId));
      expect(states.map((row) => [row.deleted === null, row.state]).sort()).toEqual([
        [false, 'none'],
        [false, 'none'],
        [true, 'ready'],
      ]);
    } finally {
      await started.close();
    }
  });
});
