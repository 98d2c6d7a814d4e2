import type { Attendance, AttendanceRow, AttendanceStatus } from '@sea/contract/attendance';

/** The rows of each session, by session id, in the record's order (by nickname). */
export function rowsBySession(attendance: Attendance): Map<number, AttendanceRow[]> {
  const bySession = new Map<number, AttendanceRow[]>(attendance.sessions.map((session) => [session.id, []]));
  for (const row of attendance.rows) bySession.get(row.session_id)?.push(row);
  return bySession;
}

/** One student's totals over the class's sessions. */
export type StudentTotals = {
  userId: string;
  nickname: string | null;
  /** Sessions whose live room the student joined at least once. */
  sessionsJoined: number;
  liveWatchS: number;
  replayWatchS: number;
};

/** Each student's totals, by nickname (students without one last). */
export function studentTotals(attendance: Attendance): StudentTotals[] {
  const totals = new Map<string, StudentTotals>();
  for (const row of attendance.rows) {
    const total = totals.get(row.user_id) ?? {
      userId: row.user_id,
      nickname: row.nickname,
      sessionsJoined: 0,
      liveWatchS: 0,
      replayWatchS: 0,
    };
    if (row.joins.length > 0) total.sessionsJoined += 1;
    total.liveWatchS += row.live_watch_s;
    total.replayWatchS += row.replay_watch_s;
    totals.set(row.user_id, total);
  }
  return [...totals.values()].sort((a, b) => {
    if (a.nickname === null || b.nickname === null) return a.nickname === null ? 1 : -1;
    return a.nickname.localeCompare(b.nickname, 'ko');
  });
}

/** When the student first came into the live room, or null when they never did. */
export function firstJoinedAt(row: AttendanceRow): string | null {
  return row.joins.reduce<string | null>(
    (first, join) => (first === null || join.joined_at < first ? join.joined_at : first),
    null,
  );
}

/**
 * When the student last left the live room: null when they never joined, `'in'` while a stay is still open.
 */
export function lastLeftAt(row: AttendanceRow): string | 'in' | null {
  if (row.joins.some((join) => join.left_at === null)) return 'in';
  return row.joins.reduce<string | null>(
    (last, join) => (join.left_at !== null && (last === null || join.left_at > last) ? join.left_at : last),
    null,
  );
}

/** How many rows say 출석, 지각 and 결석. */
export function statusCounts(rows: readonly AttendanceRow[]): Record<AttendanceStatus, number> {
  const counts = { present: 0, late: 0, absent: 0 };
  for (const row of rows) counts[row.status] += 1;
  return counts;
}
