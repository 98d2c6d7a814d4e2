import { eq } from 'drizzle-orm';
import type { MediaEdgeRoom, MediaNodeReport, MediaRevocation } from '@sea/contract/media-nodes';
import { closeAttendance, leaveNodeAttendance, syncAttendance } from '../attendance/attendance-store.ts';
import { relationsTo } from '../classes/class-role.ts';
import type { Database, Executor } from '../db/database.ts';
import { liveSessions, mediaNodes } from '../db/schema.ts';
import type { EndedSession } from '../plugins/events.ts';
import {
  closeSession,
  endNodeSessions,
  markLive,
  markNotLiveUnlessOpen,
  openSession,
  openSessionOf,
} from '../sessions/session-store.ts';
import { continueSession, handOver, handOverNode } from '../sessions/session-parts.ts';
import { markNotLiveWhileWaiting } from './node-sweep.ts';

/** What applying a node's report did. */
export type ReportOutcome = {
  /** False for a report older than one already applied (it changed nothing). */
  applied: boolean;
  /** This was the first report of a run of the node (its start, or its return after a crash). */
  firstOfBoot: boolean;
  /** Sessions that ended now. */
  ended: EndedSession[];
  /** What the node must end: the answer to its report. */
  revocation: MediaRevocation;
  /** Classes that became live with this report (their students are told). */
  wentLive: number[];
  /** Recorded sessions that started with this report (their replay is made while they run). */
  started: { classId: number; sessionId: number }[];
};

const nothing = (): MediaRevocation => ({ classIds: [], sessionKeys: [], students: [] });

/** Longer than any report can be on its way (the node gives up on one after 5 s). */
const LATE_REPORT_MS = 15_000;

/**
 * Makes the records match a media node's report, in one transaction holding the node's row (so two reports of
 * one node, or a report and the sweep, never interleave):
 * - a report older than the last one applied (same run, lower `seq`; or an earlier run) is ignored;
 * - rooms the node closed end at the time it gives, except those it closed as it stopped with other nodes to
 *   take them (`handover`): their sessions stay open for the teacher's room elsewhere, until the sweep; other
 *   open sessions of the node that it no longer lists end now;
 * - when the node has restarted (a new `boot`: it crashed, or was stopped without reporting), the sessions its
 *   previous run left open are handed over as of when it was last heard of: they wait for their teachers'
 *   rooms (on this node again, or another) and the sweep ends them at that time if nobody comes back;
 * - a room opened here after the room of its class's open session went away with its node (taken over from a
 *   dead origin, or after a handover) continues that session (session-parts.ts), and its class going live
 *   again is no news (nobody is told it went live a second time);
 * - listed rooms are open sessions (recorded once) and their classes live; the students they list, and those
 *   of the node's edge rooms (classes it relays from their origin: the class's open session), are in the
 *   session's attendance as this node's (a student newly listed joins, one no longer listed leaves, at the
 *   report's arrival; see syncAttendance for students moving between nodes);
 * - the attendance of sessions that ended closes at their end;
 * - classes whose sessions ended stop being live unless another session of theirs is open.
 * The answer tells the node what to end: rooms of deleted classes, rooms whose session was already ended
 * here (by the sweep, while the node was silent), and students who are no longer enrolled.
 */
export async function applyReport(
  db: Database,
  nodeId: string,
  report: MediaNodeReport,
  now = new Date(),
): Promise<ReportOutcome> {
  const bootedAt = new Date(report.bootedAt);
  return db.transaction(async (tx) => {
    await tx
      .insert(mediaNodes)
      .values({ id: nodeId, url: report.url, boot: report.boot, bootedAt, seq: -1, lastSeenAt: now })
      .onConflictDoNothing();
    const [node] = await tx.select().from(mediaNodes).where(eq(mediaNodes.id, nodeId)).for('update');
    if (node === undefined) throw new Error(`media node ${nodeId} vanished`);
    const sameBoot = node.boot === report.boot;
    // Another run: a newer one, or the only one still speaking (so a node whose clock went back after a
    // restart is heard once its previous run has been silent long enough for any late report of it to be over).
    const newerRun = bootedAt >= node.bootedAt || now.getTime() - node.lastSeenAt.getTime() > LATE_REPORT_MS;
    if (sameBoot ? report.seq <= node.seq : !newerRun) {
      return {
        applied: false,
        firstOfBoot: false,
        ended: [],
        revocation: nothing(),
        wentLive: [],
        started: [],
      };
    }
    await tx
      .update(mediaNodes)
      .set({ url: report.url, boot: report.boot, bootedAt, seq: report.seq, lastSeenAt: now })
      .where(eq(mediaNodes.id, nodeId));
    // A new run: the rooms of the previous one went with it (a crash). Their lectures wait for their teachers,
    // not live meanwhile, and go on as the same sessions when they come back (below, or a later report).
    const waiting = sameBoot ? [] : await handOverNode(tx, nodeId, node.lastSeenAt);

    // A room a teacher opened here after the room of the class's session went away with its node (an edge room
    // taken over, or a room anywhere after a handover) goes on with that session.
    const continued = new Set<number>();
    for (const room of [...report.rooms, ...report.closed.filter((closed) => !closed.handover)]) {
      const { classId, sessionKey: mediaKey, recording, takenOver } = room;
      const startedAt = new Date(room.startedAt);
      if (await continueSession(tx, nodeId, { classId, mediaKey, startedAt, recording, takenOver }))
        continued.add(classId);
    }
    const ended: EndedSession[] = [];
    for (const room of report.closed) {
      if (room.handover && (await handOver(tx, room.sessionKey, new Date(room.endedAt)))) continue;
      const session = await closeSession(tx, nodeId, {
        classId: room.classId,
        mediaKey: room.sessionKey,
        startedAt: new Date(room.startedAt),
        endedAt: new Date(room.endedAt),
        recording: room.recording,
      });
      if (session) ended.push(session);
    }
    const listed = report.rooms.map((room) => room.sessionKey);
    const at = sameBoot ? now : node.lastSeenAt;
    ended.push(...(await endNodeSessions(tx, nodeId, listed, at, { keepHandedOver: true })));

    const revocation = nothing();
    const open: MediaEdgeRoom[] = [];
    const attended: number[] = [];
    const recorded: { classId: number; sessionId: number }[] = [];
    for (const room of report.rooms) {
      const state = await openSession(tx, nodeId, {
        classId: room.classId,
        mediaKey: room.sessionKey,
        startedAt: new Date(room.startedAt),
        recording: room.recording,
      });
      if (state === 'open') {
        open.push(room);
        const [session] = await tx
          .select({ id: liveSessions.id })
          .from(liveSessions)
          .where(eq(liveSessions.mediaKey, room.sessionKey));
        if (session) {
          if (room.recording) recorded.push({ classId: room.classId, sessionId: session.id });
          attended.push(session.id);
          await syncAttendance(tx, nodeId, { sessionId: session.id, students: room.students }, now);
        }
      } else if (state === 'ended') revocation.sessionKeys.push(room.sessionKey);
      else revocation.classIds.push(room.classId);
    }
    for (const session of ended) await closeAttendance(tx, session.id, session.endedAt);
    const wentLive = (
      await markLive(
        tx,
        open.map((room) => room.classId),
      )
    ).filter((classId) => !continued.has(classId));
    await markNotLiveUnlessOpen(
      tx,
      ended.map((session) => session.classId),
    );
    await markNotLiveWhileWaiting(tx, waiting);
    // An edge's students attend the class's open session, whichever node holds it (after its origin died, the
    // node the teacher went to).
    const relayed: MediaEdgeRoom[] = [];
    for (const edge of report.edges) {
      const sessionId = await openSessionOf(tx, edge.classId);
      if (sessionId === null) continue;
      relayed.push(edge);
      attended.push(sessionId);
      await syncAttendance(tx, nodeId, { sessionId, students: edge.students }, now);
    }
    await leaveNodeAttendance(tx, nodeId, attended, now);
    revocation.students = await formerStudents(tx, [...open, ...relayed]);
    const started = recorded.filter((session) => wentLive.includes(session.classId));
    return { applied: true, firstOfBoot: !sameBoot || node.seq < 0, ended, revocation, wentLive, started };
  });
}

/**
 * The students in these rooms who are no longer members of the room's class (withdrawn, enrolment ended), by
 * the classes' rule (relationsTo). A deleted class's rooms end whole, not student by student.
 */
async function formerStudents(db: Executor, rooms: MediaEdgeRoom[]): Promise<MediaRevocation['students']> {
  const former: MediaRevocation['students'] = [];
  for (const room of rooms) {
    if (room.students.length === 0) continue;
    const relations = await relationsTo(db, room.classId, room.students);
    for (const userId of room.students) {
      if (relations?.get(userId) === 'none') former.push({ classId: room.classId, userId });
    }
  }
  return former;
}
