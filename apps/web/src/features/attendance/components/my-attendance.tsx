import { ATTENDANCE_STATUS_LABELS } from '@sea/contract/attendance';
import { Card } from '../../../components/ui/card.tsx';
import { formatDuration } from '../../../lib/format-date-time.ts';
import { sessionTitle } from '../../../lib/session-title.ts';
import { useAttendance } from '../api/get-attendance.ts';
import { rowsBySession } from '../attendance-summary.ts';
import { ATTENDANCE_TEXTS } from '../texts.ts';
import styles from './attendance.module.css';
import { TableScroll } from './table-scroll.tsx';

const texts = ATTENDANCE_TEXTS;

/** A student's own record: for each session, 출석 / 지각 / 결석, how often they joined, how long they watched. */
export function MyAttendance({ classId }: { classId: number }) {
  const attendance = useAttendance(classId);
  const data = attendance.data;
  const bySession = data === undefined ? null : rowsBySession(data);
  return (
    <Card title={texts.myTitle}>
      {attendance.isError && (
        <p role="alert" className={styles.failed}>
          {texts.loadFailed}
        </p>
      )}
      {data !== undefined && data.sessions.length === 0 && <p className={styles.none}>{texts.empty}</p>}
      {data !== undefined && bySession !== null && data.sessions.length > 0 && (
        <TableScroll label={texts.myTitle}>
          <table className={styles.table}>
            <caption className="visually-hidden">{texts.myTitle}</caption>
            <thead>
              <tr>
                <th scope="col">{texts.session}</th>
                <th scope="col">{texts.status}</th>
                <th scope="col">{texts.joins}</th>
                <th scope="col">{texts.liveWatch}</th>
                <th scope="col">{texts.replayWatch}</th>
              </tr>
            </thead>
            <tbody>
              {data.sessions.map((session) => {
                const row = bySession.get(session.id)?.[0];
                return (
                  <tr key={session.id}>
                    <th scope="row">{sessionTitle(session.title, session.started_at)}</th>
                    {row === undefined ? (
                      <td colSpan={4} className={styles.none}>
                        {texts.absent}
                      </td>
                    ) : (
                      <>
                        <td>
                          <span className={styles[row.status]}>{ATTENDANCE_STATUS_LABELS[row.status]}</span>
                        </td>
                        <td>{texts.joinCount(row.joins.length)}</td>
                        <td>{formatDuration(row.live_watch_s)}</td>
                        <td>{formatDuration(row.replay_watch_s)}</td>
                      </>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Card>
  );
}
