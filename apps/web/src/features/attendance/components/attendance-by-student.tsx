import type { Attendance } from '@sea/contract/attendance';
import { formatDuration } from '../../../lib/format-date-time.ts';
import { studentTotals } from '../attendance-summary.ts';
import { ATTENDANCE_TEXTS } from '../texts.ts';
import styles from './attendance.module.css';
import { TableScroll } from './table-scroll.tsx';

const texts = ATTENDANCE_TEXTS;

/** One line per student: in how many of the sessions they joined live, and their watch time in total. */
export function AttendanceByStudent({ attendance }: { attendance: Attendance }) {
  const totals = studentTotals(attendance);
  if (totals.length === 0) return <p className={styles.none}>{texts.noStudents}</p>;
  return (
    <TableScroll label={texts.byStudent}>
      <table className={styles.table}>
        <caption className="visually-hidden">{texts.byStudent}</caption>
        <thead>
          <tr>
            <th scope="col">{texts.student}</th>
            <th scope="col">{texts.sessionsJoined}</th>
            <th scope="col">{texts.liveWatch}</th>
            <th scope="col">{texts.replayWatch}</th>
          </tr>
        </thead>
        <tbody>
          {totals.map((total) => (
            <tr key={total.userId}>
              <th scope="row">{total.nickname?.trim() || texts.unknownStudent}</th>
              <td>{texts.sessionsJoinedValue(total.sessionsJoined, attendance.sessions.length)}</td>
              <td>{formatDuration(total.liveWatchS)}</td>
              <td>{formatDuration(total.replayWatchS)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
