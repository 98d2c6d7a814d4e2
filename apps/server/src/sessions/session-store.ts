import { and, desc, eq, inArray, isNull, lt, notInArray, sql } from 'drizzle-orm';
import type { RecordingState } from '@sea/contract/sessions';
import type { Executor } from '../db/database.ts';
import { classes, liveSessions } from '../db/schema.ts';
import type { EndedSession } from '../plugins/events.ts';
import { isLeftRoom } from './session-parts.ts';

/** A session as a media node reports it. */
export type SessionStart = { classId: number; mediaKey: string; startedAt: Date; recording: boolean };

const endedColumns = {
  id: liveSessions.id,
  classId: liveSessions.classId,
  mediaKey: liveSessions.mediaKey,
  nodeId: liveSessions.nodeId,
  startedAt: liveSessions.startedAt,
  endedAt: liveSessions.endedAt,
  recordingState: liveSessions.recordingState,
};
type EndedRow = Omit<EndedSession, 'endedAt' | 'recordingState'> & {
  endedAt: Date | null;
  recordingState: string;
};

/** A recorded session leaves `recording` for `processing` when it ends (its replay is made next). */
const stateAtEnd = sql<string>`case when ${liveSessions.recordingState} = 'recording' then 'processing'
  else ${liveSessions.recordingState} end`;

/** The end time: `at`, but never before the session's start. */
const endAt = (at: Date) => sql<Date>`greatest(${liveSessions.startedAt}, ${at.toISOString()}::timestamptz)`;

/** Rows just ended (their `ended_at` is set by the same statement). */
function ended(rows: EndedRow[]): EndedSession[] {
  return rows.map((row) => ({
    ...row,
    endedAt: row.endedAt ?? row.startedAt,
    recordingState: row.recordingState as RecordingState,
  }));
}

/** The row of a session `nodeId` reports, in this recording state. */
function reported(nodeId: string, session: SessionStart, recordingState: RecordingState) {
  const { classId, mediaKey, startedAt } = session;
  return { classId, mediaKey, nodeId, startedAt, recordingState };
}

/** Whether a class exists and is not deleted. */
async function classExists(db: Executor, classId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: classes.id })
    .from(classes)
    .where(and(eq(classes.id, classId), isNull(classes.deletedAt)));
  return row !== undefined;
}

/**
 * Records a session reported open on `nodeId`, once (by its media key); a later report may only turn its
 * recording on. Nothing is recorded for a class that does not exist or was deleted. Answers the session's
 * state: `open`, `ended` (it was ended here already, e.g. by the sweep, or the session went on in another
 * room: see session-parts.ts), or `noClass`.
 */
export async function openSession(
  db: Executor,
  nodeId: string,
  session: SessionStart,
): Promise<'open' | 'ended' | 'noClass'> {
  if (!(await classExists(db, session.classId))) return 'noClass';
  if (await isLeftRoom(db, session.mediaKey)) return 'ended';
  await db
    .insert(liveSessions)
    .values(reported(nodeId, session, session.recording ? 'recording' : 'none'))
    .onConflictDoUpdate({
      target: liveSessions.mediaKey,
      set: { recordingState: 'recording' },
      setWhere: sql`excluded.recording_state = 'recording' and ${liveSessions.recordingState} = 'none'
        and ${liveSessions.endedAt} is null`,
    });
  const [row] = await db
    .select({ endedAt: liveSessions.endedAt })
    .from(liveSessions)
    .where(eq(liveSessions.mediaKey, session.mediaKey));
  return row?.endedAt === null ? 'open' : 'ended';
}

/**
 * Records a session that a node reports already over (it opened and closed between two reports, or its end
 * was not acknowledged yet): inserted ended when unknown, ended when open. Answers it if it ended now.
 */
export async function closeSession(
  db: Executor,
  nodeId: string,
  session: SessionStart & { endedAt: Date },
): Promise<EndedSession | null> {
  const endedAt = new Date(Math.max(session.endedAt.getTime(), session.startedAt.getTime()));
  const [known] = await db
    .select({ id: liveSessions.id })
    .from(liveSessions)
    .where(eq(liveSessions.mediaKey, session.mediaKey));
  if (known === undefined) {
    // A room its session left (taken over elsewhere) ended nothing: the session goes on there.
    if (await isLeftRoom(db, session.mediaKey)) return null;
    // A class deleted meanwhile still gets its session: it was held.
    const [exists] = await db.select({ id: classes.id }).from(classes).where(eq(classes.id, session.classId));
    if (exists === undefined) return null;
    const inserted = await db
      .insert(liveSessions)
      .values({ ...reported(nodeId, session, session.recording ? 'processing' : 'none'), endedAt })
      .onConflictDoNothing()
      .returning(endedColumns);
    return ended(inserted)[0] ?? null;
  }
  const rows = await db
    .update(liveSessions)
    .set({ endedAt: endAt(endedAt), recordingState: stateAtEnd })
    .where(and(eq(liveSessions.id, known.id), isNull(liveSessions.endedAt)))
    .returning(endedColumns);
  return ended(rows)[0] ?? null;
}

/**
 * Ends every open session of `nodeId` whose media key is not in `keep`, at `endedAt` (never before its
 * start); with `keepHandedOver`, not those handed over either (they wait for their teacher's room on another
 * node, or for {@link endHandedOver}). Each session ends once, whoever else tries at the same time.
 */
export async function endNodeSessions(
  db: Executor,
  nodeId: string,
  keep: string[],
  endedAt: Date,
  { keepHandedOver = false } = {},
): Promise<EndedSession[]> {
  const rows = await db
    .update(liveSessions)
    .set({ endedAt: endAt(endedAt), recordingState: stateAtEnd })
    .where(
      and(
        eq(liveSessions.nodeId, nodeId),
        isNull(liveSessions.endedAt),
        keep.length > 0 ? notInArray(liveSessions.mediaKey, keep) : undefined,
        keepHandedOver ? isNull(liveSessions.handoverAt) : undefined,
      ),
    )
    .returning(endedColumns);
  return ended(rows);
}

/**
 * Ends the sessions handed over before `cutoff` that no room continued (their teacher did not come back on
 * another node), when their room went away.
 */
export async function endHandedOver(db: Executor, cutoff: Date): Promise<EndedSession[]> {
  const rows = await db
    .update(liveSessions)
    .set({
      endedAt: sql`greatest(${liveSessions.startedAt}, ${liveSessions.handoverAt})`,
      recordingState: stateAtEnd,
    })
    .where(and(isNull(liveSessions.endedAt), lt(liveSessions.handoverAt, cutoff)))
    .returning(endedColumns);
  return ended(rows);
}

/** Marks the classes of open sessions live: a teacher is broadcasting there. Answers those that were not. */
export async function markLive(db: Executor, classIds: number[]): Promise<number[]> {
  if (classIds.length === 0) return [];
  const rows = await db
    .update(classes)
    .set({ isActive: true })
    .where(and(inArray(classes.id, classIds), isNull(classes.deletedAt), eq(classes.isActive, false)))
    .returning({ id: classes.id });
  return rows.map((row) => row.id);
}

/** Marks these classes not live, unless a session of theirs is still open (on some node). */
export async function markNotLiveUnlessOpen(db: Executor, classIds: number[]): Promise<void> {
  if (classIds.length === 0) return;
  await db
    .update(classes)
    .set({ isActive: false })
    .where(
      and(
        inArray(classes.id, classIds),
        eq(classes.isActive, true),
        sql`not exists (select 1 from ${liveSessions} where ${liveSessions.classId} = ${classes.id}
          and ${liveSessions.endedAt} is null)`,
      ),
    );
}

/** The class's open live session (the latest one started and not ended), or null when it is not live. */
export async function openSessionOf(db: Executor, classId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: liveSessions.id })
    .from(liveSessions)
    .where(and(eq(liveSessions.classId, classId), isNull(liveSessions.endedAt)))
    .orderBy(desc(liveSessions.startedAt))
    .limit(1);
  return row?.id ?? null;
}

/**
 * True when the session is one of the class's that the reader may look back on: a session the teacher hid
 * is the teacher's alone, as its replay is.
 */
export async function isSessionOf(
  db: Executor,
  classId: number,
  sessionId: number,
  reader: { teacher: boolean },
): Promise<boolean> {
  const [row] = await db
    .select({ hidden: liveSessions.hidden })
    .from(liveSessions)
    .where(and(eq(liveSessions.classId, classId), eq(liveSessions.id, sessionId)));
  return row !== undefined && (reader.teacher || !row.hidden);
}
