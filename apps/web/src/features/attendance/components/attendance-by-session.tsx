import { ATTENDANCE_STATUS_LABELS, type Attendance } from '@sea/contract/attendance';
import { formatDuration, formatTimeOfDay } from '../../../lib/format-date-time.ts';
import { sessionTitle } from '../../../lib/session-title.ts';
import { firstJoinedAt, lastLeftAt, rowsBySession, statusCounts } from '../attendance-summary.ts';
import { ATTENDANCE_TEXTS } from '../texts.ts';
import styles from './attendance.module.css';
import { TableScroll } from './table-scroll.tsx';

const texts = ATTENDANCE_TEXTS;

/**
 * One table per session, newest first: every student with 출석 / 지각 / 결석, how often they came, when, and
 * how long they watched. On a phone each row is a card (the labels come from `data-label`).
 */
export function AttendanceBySession({ attendance }: { attendance: Attendance }) {
  const bySession = rowsBySession(attendance);
  return (
    <div className={styles.tables}>
      {attendance.sessions.map((session) => {
        const rows = bySession.get(session.id) ?? [];
        const title = sessionTitle(session.title, session.started_at);
        const caption = texts.sessionCaption(title, statusCounts(rows));
        if (rows.length === 0) {
          return (
            <div key={session.id}>
              <p className={styles.caption}>{caption}</p>
              <p className={styles.none}>{texts.noStudents}</p>
            </div>
          );
        }
        return (
          <TableScroll key={session.id} label={caption}>
            <table className={`${styles.table} ${styles.cards}`}>
              <caption className={styles.caption}>{caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{texts.student}</th>
                  <th scope="col">{texts.status}</th>
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
                      <td data-label={texts.status}>
                        <span className={styles[row.status]}>{ATTENDANCE_STATUS_LABELS[row.status]}</span>
                      </td>
                      <td data-label={texts.joins}>{texts.joinCount(row.joins.length)}</td>
                      <td data-label={texts.firstJoin}>{first === null ? '-' : formatTimeOfDay(first)}</td>
                      <td data-label={texts.lastLeave}>
                        {last === null ? '-' : last === 'in' ? texts.stillIn : formatTimeOfDay(last)}
                      </td>
                      <td data-label={texts.liveWatch}>{formatDuration(row.live_watch_s)}</td>
                      <td data-label={texts.replayWatch}>{formatDuration(row.replay_watch_s)}</td>
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
