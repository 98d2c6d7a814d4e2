import type { FastifyInstance } from 'fastify';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MEDIA_NODE_TIMEOUT_MS } from '@sea/contract/media-nodes';
import { attendance, jobs, mediaNodes, sessionParts } from '../db/schema.ts';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { buildTestApp, createUser, type TestUser } from '../../test/helper.ts';
import { FakeNode, isLiveNow, room, sessionsOf } from '../../test/media-node-report.ts';
import { sessionRooms } from './session-parts.ts';
import type { EndedSession } from './session-store.ts';

let app: FastifyInstance;
let teacher: TestUser;
let announced: EndedSession[];
beforeAll(async () => {
  app = await buildTestApp();
  teacher = await createUser(app);
  app.sessionEnded.subscribe((session) => {
    announced.push(session);
  });
});
afterAll(() => app.close());
beforeEach(() => {
  announced = [];
});

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
