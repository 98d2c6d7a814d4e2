import { and, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import {
  ATTENDANCE_LATE_AFTER_S,
  type Attendance,
  type AttendanceRow,
  type AttendanceStatus,
} from '@sea/contract/attendance';
import type { Executor } from '../db/database.ts';
import { attendance, classes, enrolments, liveSessions, replayWatches, users } from '../db/schema.ts';
import { MAX_SESSIONS_LISTED } from '../sessions/session-rows.ts';
import { countSeconds, percentWatched } from './watched-spans.ts';

/** Whose rows a record holds: every student's (the teacher), or one student's own. */
export type AttendanceScope = { kind: 'all' } | { kind: 'own'; userId: string };

/**
 * A class's attendance: its sessions (newest first) and a row for each student who joined a session's live
 * room or watched its replay, and for each student enrolled now who had enrolled before the session ended and
 * never came (결석), grouped by session then nickname. A stay still open counts up to the session's end (or
 * now, while live), and is shown as left at the session's end once the session is over.
 */
export async function attendanceRecord(
  db: Executor,
  classId: number,
  scope: AttendanceScope,
  now = new Date(),
): Promise<Attendance> {
  const sessions = await db
    .select({
      id: liveSessions.id,
      startedAt: liveSessions.startedAt,
      endedAt: liveSessions.endedAt,
      title: liveSessions.title,
      hidden: liveSessions.hidden,
      recordingState: liveSessions.recordingState,
      replayDurationMs: liveSessions.replayDurationMs,
    })
    .from(liveSessions)
    .where(eq(liveSessions.classId, classId))
    .orderBy(desc(liveSessions.startedAt), desc(liveSessions.id))
    .limit(MAX_SESSIONS_LISTED);
  const [owner] = await db
    .select({ teacherId: classes.teacherId, name: classes.name })
    .from(classes)
    .where(eq(classes.id, classId));
  const sessionIds = sessions.map((session) => session.id);
  const className = owner?.name ?? '';
  if (sessionIds.length === 0 || owner === undefined)
    return { class_name: className, sessions: [], rows: [] };

  const whose = (column: typeof attendance.userId | typeof replayWatches.userId) =>
    scope.kind === 'own' ? eq(column, scope.userId) : ne(column, owner.teacherId);
  const stays = await db
    .select({
      sessionId: attendance.sessionId,
      userId: attendance.userId,
      joinedAt: attendance.joinedAt,
      leftAt: attendance.leftAt,
    })
    .from(attendance)
    .where(and(inArray(attendance.sessionId, sessionIds), whose(attendance.userId)))
    .orderBy(attendance.joinedAt, attendance.id);
  const watches = await db
    .select({
      sessionId: replayWatches.sessionId,
      userId: replayWatches.userId,
      watched: replayWatches.watched,
    })
    .from(replayWatches)
    .where(and(inArray(replayWatches.sessionId, sessionIds), whose(replayWatches.userId)));

  const enrolled = await db
    .select({ userId: enrolments.userId, since: enrolments.createdAt })
    .from(enrolments)
    .innerJoin(users, eq(users.id, enrolments.userId))
    .where(
      and(
        eq(enrolments.classId, classId),
        isNull(users.deletedAt),
        scope.kind === 'own' ? eq(enrolments.userId, scope.userId) : ne(enrolments.userId, owner.teacherId),
      ),
    );

  const userIds = [...new Set([...stays, ...watches, ...enrolled].map((row) => row.userId))];
  const people =
    userIds.length === 0
      ? []
      : await db
          .select({ id: users.id, nickname: users.nickname, deletedAt: users.deletedAt })
          .from(users)
          .where(inArray(users.id, userIds));
  // A withdrawn student's rows stay in the record, without their name.
  const nicknames = new Map(people.map((p) => [p.id, p.deletedAt === null ? p.nickname : null]));

  const byKey = new Map<string, AttendanceRow>();
  const rowOf = (sessionId: number, userId: string): AttendanceRow => {
    const key = `${sessionId}/${userId}`;
    let row = byKey.get(key);
    if (row === undefined) {
      row = {
        session_id: sessionId,
        user_id: userId,
        nickname: nicknames.get(userId) ?? null,
        status: 'absent',
        joins: [],
        live_watch_s: 0,
        replay_watch_s: 0,
        replay_percent: null,
      };
      byKey.set(key, row);
    }
    return row;
  };
  const sessionById = new Map(sessions.map((session) => [session.id, session]));
  const liveMs = new Map<AttendanceRow, number>();
  for (const stay of stays) {
    const session = sessionById.get(stay.sessionId);
    if (session === undefined) continue;
    const row = rowOf(stay.sessionId, stay.userId);
    const end = session.endedAt ?? now;
    const left = stay.leftAt ?? session.endedAt;
    const until = Math.min((left ?? now).getTime(), end.getTime());
    liveMs.set(row, (liveMs.get(row) ?? 0) + Math.max(0, until - stay.joinedAt.getTime()));
    row.joins.push({ joined_at: stay.joinedAt.toISOString(), left_at: left?.toISOString() ?? null });
  }
  for (const [row, ms] of liveMs) row.live_watch_s = Math.floor(ms / 1000);
  for (const watch of watches) {
    const row = rowOf(watch.sessionId, watch.userId);
    row.replay_watch_s = countSeconds(watch.watched);
  }
  // Every student enrolled before a session ended has a row of it: one who never came is 결석.
  for (const { userId, since } of enrolled) {
    for (const session of sessions) {
      if (since.getTime() <= (session.endedAt ?? now).getTime()) rowOf(session.id, userId);
    }
  }
  for (const row of byKey.values()) {
    const session = sessionById.get(row.session_id);
    if (session !== undefined) row.status = statusOf(row, session.startedAt);
    if (session?.recordingState === 'ready') {
      row.replay_percent = percentWatched(row.replay_watch_s, session.replayDurationMs);
    }
  }

  const order = new Map(sessionIds.map((id, index) => [id, index]));
  const rows = [...byKey.values()].sort(
    (a, b) =>
      (order.get(a.session_id) ?? 0) - (order.get(b.session_id) ?? 0) ||
      compareNicknames(a.nickname, b.nickname) ||
      a.user_id.localeCompare(b.user_id),
  );
  return {
    class_name: className,
    sessions: sessions.map((session) => ({
      id: session.id,
      started_at: session.startedAt.toISOString(),
      ended_at: session.endedAt?.toISOString() ?? null,
      // A hidden replay's title is the teacher's own: a student's record shows the session by its date.
      title: scope.kind === 'own' && session.hidden ? null : session.title,
    })),
    rows,
  };
}

/** 출석 when the first stay began within ATTENDANCE_LATE_AFTER_S of the start, 지각 after, 결석 without one. */
function statusOf(row: AttendanceRow, startedAt: Date): AttendanceStatus {
  const first = row.joins[0]?.joined_at;
  if (first === undefined) return 'absent';
  return Date.parse(first) - startedAt.getTime() > ATTENDANCE_LATE_AFTER_S * 1000 ? 'late' : 'present';
}

const collator = new Intl.Collator('ko');

/** Korean order; rows without a name (withdrawn students) last. */
function compareNicknames(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return collator.compare(a, b);
}
