import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MEDIA_NODE_TIMEOUT_MS } from '@sea/contract/media-nodes';
import { attendance, classes, mediaNodes } from '../db/schema.ts';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { createUser } from '../../test/helper.ts';
import { FakeNode, isLiveNow, reportingApp, room, sessionsOf } from '../../test/media-node-report.ts';

const { app, teacher, announced } = await reportingApp();

const later = (ms: number) => new Date(Date.now() + ms);
const lastSeen = async (node: FakeNode) =>
  (await app.db.select().from(mediaNodes).where(eq(mediaNodes.id, node.id)))[0]?.lastSeenAt;

describe('the sweep of silent media nodes', () => {
  it('ends the stays of a silent edge’s students when it was last heard of; the session goes on', async () => {
    const classId = await insertClass(app, teacher.id);
    const student = await createUser(app);
    await insertEnrolment(app, classId, student.id);
    const origin = new FakeNode(app);
    const edge = new FakeNode(app);
    const open = room(classId);
    await origin.report({ rooms: [open] });
    await edge.report({ edges: [{ classId, students: [student.id] }] });
    const heard = await lastSeen(edge);
    const stays = () => app.db.select().from(attendance).where(eq(attendance.userId, student.id));
    expect((await stays()).map((row) => row.leftAt)).toEqual([null]);

    // The origin keeps reporting; the edge died.
    const now = later(MEDIA_NODE_TIMEOUT_MS + 1_000);
    await app.db.update(mediaNodes).set({ lastSeenAt: now }).where(eq(mediaNodes.id, origin.id));
    await app.mediaNodes.sweep(now);
    expect((await stays()).map((row) => row.leftAt)).toEqual([heard]);
    expect(await isLiveNow(app, classId)).toBe(true);
    await origin.report({ rooms: [] }); // the lecture ends: nothing left for the next tests' sweeps
  });

  it('ends the sessions of a node silent past the timeout, when it was last heard of, once', async () => {
    const classId = await insertClass(app, teacher.id);
    const node = new FakeNode(app);
    const open = room(classId);
    await node.report({ rooms: [open] });
    const heard = await lastSeen(node);

    expect(await app.mediaNodes.sweep(later(MEDIA_NODE_TIMEOUT_MS - 2_000))).toEqual([]);
    expect(await isLiveNow(app, classId)).toBe(true);

    const ended = await app.mediaNodes.sweep(later(MEDIA_NODE_TIMEOUT_MS + 1_000));
    expect(ended.map((s) => s.mediaKey)).toEqual([open.sessionKey]);
    expect(await isLiveNow(app, classId)).toBe(false);
    const [session] = await sessionsOf(app, classId);
    expect(session?.endedAt).toEqual(heard);
    expect(session?.recordingState).toBe('processing');
    expect(await app.mediaNodes.sweep(later(MEDIA_NODE_TIMEOUT_MS + 60_000))).toEqual([]);
    expect(announced.map((s) => s.id)).toEqual([session?.id]);

    // The node speaks again with the room still open: the session stays ended and the node is told to close
    // that room; the class is not live again.
    expect(await node.report({ rooms: [open] })).toEqual({
      classIds: [],
      sessionKeys: [open.sessionKey],
      students: [],
    });
    expect(await isLiveNow(app, classId)).toBe(false);
    expect(announced).toHaveLength(1);
  });

  it('at start, every class live without an open session on a node heard from lately stops being live', async () => {
    const byPatch = await insertClass(app, teacher.id, { isActive: true });
    const onFresh = await insertClass(app, teacher.id);
    const onSilent = await insertClass(app, teacher.id);
    const fresh = new FakeNode(app);
    const silent = new FakeNode(app);
    await fresh.report({ rooms: [room(onFresh)] });
    await silent.report({ rooms: [room(onSilent)] });
    const heard = await lastSeen(silent);
    await app.db
      .update(mediaNodes)
      .set({ lastSeenAt: new Date(Date.now() - MEDIA_NODE_TIMEOUT_MS - 5_000) })
      .where(eq(mediaNodes.id, silent.id));

    const reset = await app.mediaNodes.reconcileAtStart();
    expect(reset).toContain(byPatch);
    expect(await isLiveNow(app, byPatch)).toBe(false);
    expect(await isLiveNow(app, onSilent)).toBe(false);
    expect(await isLiveNow(app, onFresh)).toBe(true);
    // Ended no later than the node was last heard from (once, in CI, exactly then).
    expect((await sessionsOf(app, onSilent))[0]?.endedAt?.getTime()).toBeLessThanOrEqual(
      heard?.getTime() ?? 0,
    );
    expect((await sessionsOf(app, onFresh))[0]?.endedAt).toBeNull();
    expect(announced.map((s) => s.classId)).toEqual([onSilent]);
  });

  it('a deleted class is never made live by a report', async () => {
    const classId = await insertClass(app, teacher.id, { deletedAt: new Date() });
    const node = new FakeNode(app);
    expect((await node.report({ rooms: [room(classId)] })).classIds).toEqual([classId]);
    const [row] = await app.db
      .select({ live: classes.isActive })
      .from(classes)
      .where(eq(classes.id, classId));
    expect(row?.live).toBe(false);
    expect(await sessionsOf(app, classId)).toEqual([]);
  });
});
