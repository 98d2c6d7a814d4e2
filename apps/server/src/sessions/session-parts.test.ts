import net, { type AddressInfo } from 'node:net';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MEDIA_NODE_TIMEOUT_MS } from '@sea/contract/media-nodes';
import { attendance, jobs, mediaNodes, sessionParts } from '../db/schema.ts';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { createUser } from '../../test/helper.ts';
import { FakeNode, isLiveNow, reportingApp, room, sessionsOf } from '../../test/media-node-report.ts';
import { sessionRooms } from './session-parts.ts';

const { app, teacher, announced } = await reportingApp();

/** A class with students, its origin holding the room and an edge relaying it. */
async function lecture(studentCount: number) {
  const classId = await insertClass(app, teacher.id);
  const students = [];
  for (let i = 0; i < studentCount; i += 1) {
    const student = await createUser(app);
    await insertEnrolment(app, classId, student.id);
    students.push(student.id);
  }
  return { classId, students, origin: new FakeNode(app), edge: new FakeNode(app) };
}

const partsOf = (sessionId: number) =>
  app.db
    .select({ mediaKey: sessionParts.mediaKey, nodeId: sessionParts.nodeId })
    .from(sessionParts)
    .where(eq(sessionParts.sessionId, sessionId))
    .orderBy(asc(sessionParts.id));
const staysOf = (sessionId: number) =>
  app.db
    .select({ userId: attendance.userId, nodeId: attendance.nodeId, leftAt: attendance.leftAt })
    .from(attendance)
    .where(eq(attendance.sessionId, sessionId))
    .orderBy(asc(attendance.id));

describe('a room taken over after its origin died continues the session', () => {
  it('one session, two parts, the stays going on; the sweep of the dead origin and its return end nothing', async () => {
    const { classId, students, origin, edge } = await lecture(3);
    const [s1, s2, s3] = students as [string, string, string];
    const first = room(classId, { students: [s1, s2] });
    await origin.report({ rooms: [first] });
    await edge.report({ edges: [{ classId, students: [s3] }] });
    const [session] = await sessionsOf(app, classId);
    if (!session) throw new Error('no session');

    // The origin dies; the teacher takes the edge's room over, student 1 follows there, student 2 never comes back.
    const takenOver = room(classId, { students: [s3, s1], takenOver: true });
    expect(await edge.report({ rooms: [takenOver] })).toEqual({
      classIds: [],
      sessionKeys: [],
      students: [],
    });
    expect(await sessionsOf(app, classId)).toEqual([
      {
        ...session,
        mediaKey: takenOver.sessionKey,
        nodeId: edge.id,
        endedAt: null,
        recordingState: 'recording',
      },
    ]);
    expect(await partsOf(session.id)).toEqual([
      { mediaKey: first.sessionKey, nodeId: origin.id },
      { mediaKey: takenOver.sessionKey, nodeId: edge.id },
    ]);
    expect(await sessionRooms(app.db, session)).toEqual([
      { mediaKey: first.sessionKey, startedAt: session.startedAt },
      { mediaKey: takenOver.sessionKey, startedAt: new Date(takenOver.startedAt) },
    ]);
    // Student 3 stayed on the edge: one stay; student 1 moved: one stay, now the edge's.
    const stays = await staysOf(session.id);
    expect(stays.filter((stay) => stay.leftAt === null).map((stay) => [stay.userId, stay.nodeId])).toEqual(
      expect.arrayContaining([
        [s1, edge.id],
        [s3, edge.id],
        [s2, origin.id],
      ]),
    );
    expect(stays).toHaveLength(3);
    // Reported again, nothing more changes.
    await edge.report({ rooms: [takenOver] });
    expect(await partsOf(session.id)).toHaveLength(2);

    // The dead origin's silence is swept: student 2's stay ends, the session goes on.
    const now = new Date(Date.now() + MEDIA_NODE_TIMEOUT_MS + 1_000);
    await app.db.update(mediaNodes).set({ lastSeenAt: now }).where(eq(mediaNodes.id, edge.id));
    expect(await app.mediaNodes.sweep(now)).toEqual([]);
    expect((await staysOf(session.id)).filter((stay) => stay.leftAt === null)).toHaveLength(2);
    expect(await isLiveNow(app, classId)).toBe(true);

    // The origin was not dead after all (cut off): its room is told to close, and no session is made of it,
    // open or closed.
    expect((await origin.report({ rooms: [first] })).sessionKeys).toEqual([first.sessionKey]);
    const { students: _students, ...closed } = first;
    await origin.report({ closed: [{ ...closed, endedAt: new Date().toISOString() }] });
    expect(await sessionsOf(app, classId)).toHaveLength(1);
    expect(announced).toEqual([]);

    // The lecture ends on the edge: the one session ends, recorded, its replay queued once.
    await edge.report({ rooms: [] });
    const [ended] = await sessionsOf(app, classId);
    expect(ended).toMatchObject({ id: session.id, recordingState: 'processing' });
    expect(ended?.endedAt).not.toBeNull();
    expect(announced.map((s) => s.id)).toEqual([session.id]);
    const queued = await app.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `replay:${session.id}`));
    expect(queued).toHaveLength(1);
  });

  it('a room taken over and closed between two reports still continues the session and ends it', async () => {
    const { classId, origin, edge } = await lecture(0);
    const first = room(classId, { recording: false });
    await origin.report({ rooms: [first] });
    const { students: _students, ...closed } = room(classId, { takenOver: true });
    await edge.report({ closed: [{ ...closed, endedAt: new Date().toISOString() }] });
    const sessions = await sessionsOf(app, classId);
    expect(sessions).toHaveLength(1);
    // The origin's part was not recorded, this one was: the session has a recording to make.
    expect(sessions[0]).toMatchObject({ mediaKey: closed.sessionKey, recordingState: 'processing' });
    expect(sessions[0]?.endedAt).not.toBeNull();
    expect(announced.map((s) => s.id)).toEqual([sessions[0]?.id]);
  });

  it('without an open session of the class elsewhere (the origin ended it), the room is a session of its own', async () => {
    const { classId, origin, edge } = await lecture(0);
    await origin.report({ rooms: [room(classId)] });
    await origin.report({ rooms: [] });
    await edge.report({ rooms: [room(classId, { takenOver: true })] });
    const sessions = await sessionsOf(app, classId);
    expect(sessions.map((s) => [s.nodeId, s.endedAt === null])).toEqual([
      [origin.id, false],
      [edge.id, true],
    ]);
    expect(await partsOf(sessions[1]?.id ?? 0)).toEqual([]);
    await edge.report({ rooms: [] });
  });
});

describe("a room closed by its node's stop is handed over", () => {
  /** The room's close as its node reports it at a stop with other nodes to take over (`handover`). */
  const stopped = (open: ReturnType<typeof room>, endedAt: Date) => {
    const { students: _students, ...closed } = open;
    return { ...closed, endedAt: endedAt.toISOString(), handover: true };
  };

  it('its session stays open and live, and the room its teacher opens on any other node continues it', async () => {
    const { classId, students, origin, edge: other } = await lecture(2);
    const [s1, s2] = students as [string, string];
    const first = room(classId, { students: [s1, s2] });
    await origin.report({ rooms: [first] });
    const [session] = await sessionsOf(app, classId);
    if (!session) throw new Error('no session');

    const stopAt = new Date();
    await origin.report({ closed: [stopped(first, stopAt)] });
    const [waiting] = await sessionsOf(app, classId);
    expect(waiting).toMatchObject({ id: session.id, endedAt: null, handoverAt: stopAt });
    expect(await isLiveNow(app, classId)).toBe(true);
    // The students left with the node: their stays end until they are in a room again.
    expect((await staysOf(session.id)).map((stay) => stay.leftAt === null)).toEqual([false, false]);
    // The stopping node's last report, and its next run's first, leave it waiting.
    await origin.report({});
    origin.restart();
    await origin.report({});
    expect(await sessionsOf(app, classId)).toMatchObject([{ id: session.id, endedAt: null }]);
    expect(announced).toEqual([]);

    // The teacher's new room, on a node that never pulled the class, and student 1 in it.
    const second = room(classId, { students: [s1] });
    await other.report({ rooms: [second] });
    expect(await sessionsOf(app, classId)).toEqual([
      { ...waiting, mediaKey: second.sessionKey, nodeId: other.id, handoverAt: null },
    ]);
    expect(await partsOf(session.id)).toEqual([
      { mediaKey: first.sessionKey, nodeId: origin.id },
      { mediaKey: second.sessionKey, nodeId: other.id },
    ]);
    expect((await staysOf(session.id)).filter((stay) => stay.leftAt === null)).toMatchObject([
      { userId: s1, nodeId: other.id },
    ]);

    // The stopped node's silence is swept later: nothing of the session ends with it.
    const later = new Date(Date.now() + MEDIA_NODE_TIMEOUT_MS + 1_000);
    await app.db.update(mediaNodes).set({ lastSeenAt: later }).where(eq(mediaNodes.id, other.id));
    expect(await app.mediaNodes.sweep(later)).toEqual([]);
    await other.report({ rooms: [] });
    expect(announced.map((s) => s.id)).toEqual([session.id]);
  });

  it('with no teacher back, the sweep ends the session when its node stopped, even if the node is back', async () => {
    const { classId, origin } = await lecture(0);
    const first = room(classId);
    await origin.report({ rooms: [first] });
    const stopAt = new Date();
    await origin.report({ closed: [stopped(first, stopAt)] });
    origin.restart();
    await origin.report({});
    await app.db
      .update(mediaNodes)
      .set({ lastSeenAt: new Date(Date.now() + MEDIA_NODE_TIMEOUT_MS + 1_000) })
      .where(eq(mediaNodes.id, origin.id));
    const ended = await app.mediaNodes.sweep(new Date(Date.now() + MEDIA_NODE_TIMEOUT_MS + 1_000));
    expect(ended.filter((s) => s.classId === classId)).toHaveLength(1);
    const [session] = await sessionsOf(app, classId);
    // Ended when the node was last heard of: its stop.
    expect(session?.endedAt?.getTime()).toBeGreaterThanOrEqual(stopAt.getTime());
    expect(session?.endedAt?.getTime()).toBeLessThan(stopAt.getTime() + 1_000);
    expect(session?.recordingState).toBe('processing');
    expect(await isLiveNow(app, classId)).toBe(false);
  });

  it('a room of the class on another node while its session is not handed over is a session of its own', async () => {
    const { classId, origin, edge: other } = await lecture(0);
    await origin.report({ rooms: [room(classId)] });
    await other.report({ rooms: [room(classId)] });
    const sessions = await sessionsOf(app, classId);
    expect(sessions.map((s) => [s.nodeId, s.endedAt === null])).toEqual([
      [origin.id, true],
      [other.id, true],
    ]);
    await origin.report({ rooms: [] });
    await other.report({ rooms: [] });
  });

  it('a node found gone hands its open sessions over', async () => {
    const { classId, origin, edge: other } = await lecture(0);
    // Nothing listens at the origin's URL, which answered this run of it before.
    const listener = net.createServer();
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    await new Promise((resolve) => listener.close(resolve));
    origin.url = `http://127.0.0.1:${port}`;
    const first = room(classId);
    await origin.report({ rooms: [first] });
    await app.db.update(mediaNodes).set({ reachedBoot: origin.boot }).where(eq(mediaNodes.id, origin.id));
    expect(await app.mediaNodes.gone(origin.id)).toBe(true);
    const [waiting] = await sessionsOf(app, classId);
    expect(waiting?.handoverAt).not.toBeNull();
    const second = room(classId);
    await other.report({ rooms: [second] });
    expect((await sessionsOf(app, classId)).map((s) => [s.id, s.mediaKey])).toEqual([
      [waiting?.id, second.sessionKey],
    ]);
    await other.report({ rooms: [] });
  });
});

describe('a media service that dies and comes back within the wait goes on with the same lecture', () => {
  /** The origin's lecture with two students in it, and what the test reads of it. */
  async function killedMidLecture() {
    const { classId, students, origin } = await lecture(2);
    const [s1, s2] = students as [string, string];
    const first = room(classId, { students: [s1, s2] });
    await origin.report({ rooms: [first] });
    const [session] = await sessionsOf(app, classId);
    if (!session) throw new Error('no session');
    return { classId, s1, s2, origin, first, session };
  }

  /** One session with both rooms as its parts, one attendance session, one replay job once it ends. */
  async function expectOneLecture(classId: number, sessionId: number, rooms: string[]) {
    const sessions = await sessionsOf(app, classId);
    expect(sessions.map((s) => s.id)).toEqual([sessionId]);
    expect((await partsOf(sessionId)).map((part) => part.mediaKey)).toEqual(rooms);
    const [session] = sessions;
    if (!session) throw new Error('no session');
    expect((await sessionRooms(app.db, session)).map((part) => part.mediaKey)).toEqual(rooms);
    const attended = await app.db
      .selectDistinct({ sessionId: attendance.sessionId })
      .from(attendance)
      .innerJoin(sessionParts, eq(sessionParts.sessionId, attendance.sessionId))
      .where(eq(sessionParts.sessionId, sessionId));
    expect(attended).toEqual([{ sessionId }]);
  }

  it("restarted before anyone noticed: its first report hands the lecture over, the teacher's room continues it", async () => {
    const { classId, s1, s2, origin, first, session } = await killedMidLecture();
    // SIGKILL, then the same node (same id) starts again: its hello lists no room.
    origin.restart();
    await origin.report({});
    const [waiting] = await sessionsOf(app, classId);
    expect(waiting).toMatchObject({ id: session.id, endedAt: null });
    expect(waiting?.handoverAt).not.toBeNull();
    // Waiting for the teacher: not shown live meanwhile, nothing ended or announced.
    expect(await isLiveNow(app, classId)).toBe(false);
    expect(announced).toEqual([]);

    // The teacher's client reconnects to the restarted node and opens the room again; the students follow.
    const second = room(classId, { students: [s1, s2] });
    await origin.report({ rooms: [second] });
    expect(await isLiveNow(app, classId)).toBe(true);
    expect(await sessionsOf(app, classId)).toMatchObject([
      { id: session.id, mediaKey: second.sessionKey, nodeId: origin.id, endedAt: null, handoverAt: null },
    ]);
    await expectOneLecture(classId, session.id, [first.sessionKey, second.sessionKey]);
    expect((await staysOf(session.id)).filter((stay) => stay.leftAt === null)).toHaveLength(2);

    // The lecture ends: one session ends, one replay job made of both stretches.
    await origin.report({ rooms: [] });
    expect(announced.map((s) => s.id)).toEqual([session.id]);
    const queued = await app.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `replay:${session.id}`));
    expect(queued).toHaveLength(1);
    expect((await sessionsOf(app, classId))[0]?.recordingState).toBe('processing');
  });

  it('found gone by the watch first, then back: the same session goes on', async () => {
    const { classId, s1, origin, first, session } = await killedMidLecture();
    const listener = net.createServer();
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    await new Promise((resolve) => listener.close(resolve));
    origin.url = `http://127.0.0.1:${port}`;
    await origin.report({ rooms: [first] });
    await app.db.update(mediaNodes).set({ reachedBoot: origin.boot }).where(eq(mediaNodes.id, origin.id));
    expect(await app.mediaNodes.watch()).toEqual([classId]);
    expect(await isLiveNow(app, classId)).toBe(false);

    origin.restart();
    await origin.report({});
    const second = room(classId, { students: [s1] });
    await origin.report({ rooms: [second] });
    await expectOneLecture(classId, session.id, [first.sessionKey, second.sessionKey]);
    expect(await isLiveNow(app, classId)).toBe(true);
    await origin.report({ rooms: [] });
    expect(announced.map((s) => s.id)).toEqual([session.id]);
  });

  it('nobody back within the wait: the sweep ends the lecture when the node died', async () => {
    const { classId, origin, session } = await killedMidLecture();
    const [seen] = await app.db.select().from(mediaNodes).where(eq(mediaNodes.id, origin.id));
    origin.restart();
    await origin.report({});
    const later = new Date(Date.now() + MEDIA_NODE_TIMEOUT_MS + 1_000);
    await app.db.update(mediaNodes).set({ lastSeenAt: later }).where(eq(mediaNodes.id, origin.id));
    expect((await app.mediaNodes.sweep(later)).map((s) => s.id)).toContain(session.id);
    const [ended] = await sessionsOf(app, classId);
    expect(ended?.endedAt).toEqual(seen?.lastSeenAt);
    // A room opened after that is a lecture of its own.
    await origin.report({ rooms: [room(classId)] });
    expect(await sessionsOf(app, classId)).toHaveLength(2);
    await origin.report({ rooms: [] });
  });
});
