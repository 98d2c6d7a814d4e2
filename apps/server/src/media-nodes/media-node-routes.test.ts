import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MEDIA_NODE_TIMEOUT_MS } from '@sea/contract/media-nodes';
import { classes, mediaNodes } from '../db/schema.ts';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectError } from '../../test/expect-envelope.ts';
import { createUser } from '../../test/helper.ts';
import {
  FakeNode,
  isLiveNow,
  mediaToken,
  reportingApp,
  room,
  sessionsOf,
} from '../../test/media-node-report.ts';

const { app, teacher, announced } = await reportingApp();

describe('a media node reporting its rooms', () => {
  it('a room listed opens one session and makes its class live; repeated reports change nothing', async () => {
    const classId = await insertClass(app, teacher.id);
    const node = new FakeNode(app);
    const open = room(classId, { startedAt: '2026-05-01T10:00:00.000Z' });
    expect(await node.report({ rooms: [open] })).toEqual({ classIds: [], sessionKeys: [], students: [] });
    await node.report({ rooms: [open] });
    expect(await isLiveNow(app, classId)).toBe(true);
    const [session, ...more] = await sessionsOf(app, classId);
    expect(more).toEqual([]);
    expect(session).toMatchObject({
      mediaKey: open.sessionKey,
      nodeId: node.id,
      startedAt: new Date('2026-05-01T10:00:00.000Z'),
      endedAt: null,
      recordingState: 'recording',
    });
    expect(announced).toEqual([]);
  });

  it('a room closed ends its session when the node says, the class stops being live, announced once', async () => {
    const classId = await insertClass(app, teacher.id);
    const node = new FakeNode(app);
    const open = room(classId);
    await node.report({ rooms: [open] });
    const closed = { ...open, endedAt: new Date(Date.now() + 1_000).toISOString() };
    delete (closed as { students?: unknown }).students;
    await node.report({ closed: [closed] });
    // Sent again (the node had not heard the answer): nothing more happens.
    await node.report({ closed: [closed] });
    expect(await isLiveNow(app, classId)).toBe(false);
    const [session] = await sessionsOf(app, classId);
    expect(session?.endedAt).toEqual(new Date(closed.endedAt));
    // Recorded: its replay is made next.
    expect(session?.recordingState).toBe('processing');
    expect(announced.map((s) => [s.id, s.recordingState])).toEqual([[session?.id, 'processing']]);
  });

  it('a room that opened and closed between two reports is kept as an ended session', async () => {
    const classId = await insertClass(app, teacher.id);
    const node = new FakeNode(app);
    const { students: _students, ...brief } = room(classId, { recording: false });
    await node.report({ closed: [{ ...brief, endedAt: new Date().toISOString() }] });
    const [session] = await sessionsOf(app, classId);
    expect(session).toMatchObject({ mediaKey: brief.sessionKey, recordingState: 'none' });
    expect(session?.endedAt).not.toBeNull();
    expect(await isLiveNow(app, classId)).toBe(false);
    expect(announced).toHaveLength(1);
  });

  it('a session the node no longer lists ends at once; a not-recorded one stays none', async () => {
    const classId = await insertClass(app, teacher.id);
    const node = new FakeNode(app);
    await node.report({ rooms: [room(classId, { recording: false })] });
    const before = Date.now();
    await node.report({ rooms: [] });
    const [session] = await sessionsOf(app, classId);
    expect(session?.endedAt?.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(session?.recordingState).toBe('none');
    expect(await isLiveNow(app, classId)).toBe(false);
    expect(announced.map((s) => s.recordingState)).toEqual(['none']);
  });

  it('recording turned on later is kept; the session then ends as processing', async () => {
    const classId = await insertClass(app, teacher.id);
    const node = new FakeNode(app);
    const open = room(classId, { recording: false });
    await node.report({ rooms: [open] });
    await node.report({ rooms: [{ ...open, recording: true }] });
    await node.report({ rooms: [{ ...open, recording: false }] });
    expect((await sessionsOf(app, classId))[0]?.recordingState).toBe('recording');
    await node.report();
    expect((await sessionsOf(app, classId))[0]?.recordingState).toBe('processing');
  });

  it('ignores a report older than one applied (a late retry)', async () => {
    const classId = await insertClass(app, teacher.id);
    const node = new FakeNode(app);
    const open = room(classId);
    await node.report({ rooms: [open] });
    await node.report({ rooms: [open] });
    node.seq -= 1;
    await node.report({ rooms: [] }); // the seq of the report above: already applied
    expect((await sessionsOf(app, classId)).filter((s) => s.endedAt === null)).toHaveLength(1);
    expect(await isLiveNow(app, classId)).toBe(true);
  });

  it('a node back after a crash: its old sessions wait, then end when its previous run was last heard of', async () => {
    const classId = await insertClass(app, teacher.id);
    const other = await insertClass(app, teacher.id);
    const node = new FakeNode(app);
    await node.report({ rooms: [room(classId), room(other, { recording: false })] });
    const [seen] = await app.db.select().from(mediaNodes).where(eq(mediaNodes.id, node.id));
    const previousRun = { ...node };

    node.restart();
    await node.report({ rooms: [] });
    for (const id of [classId, other]) {
      expect(await isLiveNow(app, id)).toBe(false);
      expect((await sessionsOf(app, id))[0]?.handoverAt).toEqual(seen?.lastSeenAt);
    }
    // Nobody came back within the wait (their teachers' rooms would have continued them): they end.
    const later = new Date(Date.now() + MEDIA_NODE_TIMEOUT_MS + 1_000);
    await app.db.update(mediaNodes).set({ lastSeenAt: later }).where(eq(mediaNodes.id, node.id));
    await app.mediaNodes.sweep(later);
    for (const id of [classId, other]) {
      expect((await sessionsOf(app, id))[0]?.endedAt).toEqual(seen?.lastSeenAt);
    }
    const ours = announced.filter((s) => s.classId === classId || s.classId === other);
    expect(ours.map((s) => s.recordingState).sort()).toEqual(['none', 'processing']);

    // A late report of the previous run changes nothing.
    const stale = new FakeNode(app, node.id);
    Object.assign(stale, { boot: previousRun.boot, bootedAt: previousRun.bootedAt, seq: previousRun.seq });
    await stale.report({ rooms: [room(classId)] });
    expect(await isLiveNow(app, classId)).toBe(false);
  });

  it('a node restarted with its clock set back is heard once its previous run has been silent 15 s', async () => {
    const classId = await insertClass(app, teacher.id);
    const node = new FakeNode(app);
    await node.report({ rooms: [room(classId)] });
    node.restart();
    node.bootedAt = new Date(Date.now() - 3_600_000);
    await node.report({ rooms: [] });
    expect(await isLiveNow(app, classId)).toBe(true); // could be a late report of an earlier run
    await app.db
      .update(mediaNodes)
      .set({ lastSeenAt: new Date(Date.now() - 16_000) })
      .where(eq(mediaNodes.id, node.id));
    await node.report({ rooms: [] });
    expect(await isLiveNow(app, classId)).toBe(false);
  });

  it('answers what the node must end: deleted classes, sessions ended here, former students', async () => {
    const deleted = await insertClass(app, teacher.id);
    const classId = await insertClass(app, teacher.id);
    const enrolled = await createUser(app);
    const stranger = await createUser(app);
    await insertEnrolment(app, classId, enrolled.id);
    const node = new FakeNode(app);
    const kept = room(classId, { students: [enrolled.id, stranger.id] });
    const gone = room(deleted);
    await node.report({ rooms: [kept, gone] });
    await app.db.update(classes).set({ deletedAt: new Date() }).where(eq(classes.id, deleted));
    const revocation = await node.report({ rooms: [kept, gone] });
    expect(revocation).toEqual({
      classIds: [deleted],
      sessionKeys: [],
      students: [{ classId, userId: stranger.id }],
    });
    // The deleted class's session (still listed) is open until the node closes the room.
    await node.report({ rooms: [kept] });
    expect(await isLiveNow(app, deleted)).toBe(false);
    expect(await isLiveNow(app, classId)).toBe(true);
  });

  it('refuses a report without a valid token (401) and a malformed one (400)', async () => {
    const node = new FakeNode(app);
    expectError(await node.send({}, 'not-a-token'), 401);
    expectError(await node.send({}, await mediaToken(app, 'x'.repeat(40))), 401);
    expectError(await node.send({}, teacher.token), 401);
    expectError(await node.send({ rooms: [{ classId: 0 } as never] }), 400);
    expectError(await node.send({ url: 'nowhere' }), 400);
  });
});
