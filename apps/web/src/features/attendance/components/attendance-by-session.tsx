import type { Attendance } from '@sea/contract/attendance';
import { formatDuration, formatTimeOfDay } from '../../../lib/format-date-time.ts';
import { sessionTitle } from '../../../lib/session-title.ts';
import { firstJoinedAt, lastLeftAt, rowsBySession } from '../attendance-summary.ts';
import { ATTENDANCE_TEXTS } from '../texts.ts';
import styles from './attendance.module.css';
import { TableScroll } from './table-scroll.tsx';

const texts = ATTENDANCE_TEXTS;

/** One table per session, newest first: who came, how often, when, and how long they watched. */
export function AttendanceBySession({ attendance }: { attendance: Attendance }) {
  const bySession = rowsBySession(attendance);
  return (
    <div className={styles.tables}>
      {attendance.sessions.map((session) => {
        const rows = bySession.get(session.id) ?? [];
        const title = sessionTitle(session.title, session.started_at);
        if (rows.length === 0) {
          return (
            <div key={session.id}>
              <p className={styles.caption}>{texts.sessionCaption(title, 0)}</p>
              <p className={styles.none}>{texts.noStudents}</p>
            </div>
          );
        }
        return (
          <TableScroll key={session.id} label={texts.sessionCaption(title, rows.length)}>
            <table className={styles.table}>
              <caption className={styles.caption}>{texts.sessionCaption(title, rows.length)}</caption>
              <thead>
                <tr>
                  <th scope="col">{texts.student}</th>
                  <th scope="col">{texts.joins}</th>
                  <th scope="col">{texts.firstJoin}</th>
                  <th scope="col">{texts.lastLeave}</th>
                  <th scope="col">{texts.liveWatch}</th>
                  <th scope="col">{texts.replayWatch}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => {
                  const first = firstJoinedAt(row);
                  const last = lastLeftAt(row);
                  return (
                    <tr key={row.user_id}>
                      <th scope="row">{row.nickname?.trim() || texts.unknownStudent}</th>
                      <td>{texts.joinCount(row.joins.length)}</td>
                      <td>{first === null ? '-' : formatTimeOfDay(first)}</td>
                      <td>{last === null ? '-' : last === 'in' ? texts.stillIn : formatTimeOfDay(last)}</td>
                      <td>{formatDuration(row.live_watch_s)}</td>
                      <td>{formatDuration(row.replay_watch_s)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
        );
      })}
    </div>
  );
}
