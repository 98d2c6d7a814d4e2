import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { downloadAttendanceCsv } from '../api/download-attendance-csv.ts';
import { useAttendance } from '../api/get-attendance.ts';
import { ATTENDANCE_TEXTS } from '../texts.ts';
import { AttendanceBySession } from './attendance-by-session.tsx';
import { AttendanceByStudent } from './attendance-by-student.tsx';
import styles from './attendance.module.css';

const texts = ATTENDANCE_TEXTS;

/** The teacher's attendance record: per session or per student, and the whole record as a CSV file. */
export function AttendanceCard({ classId }: { classId: number }) {
  const attendance = useAttendance(classId);
  const notify = useNotify();
  const [view, setView] = useState<'session' | 'student'>('session');
  const [downloading, setDownloading] = useState(false);
  const data = attendance.data;

  const download = () => {
    setDownloading(true);
    downloadAttendanceCsv(classId, data?.class_name ?? '')
      .catch(() => notify(texts.downloadFailed, { tone: 'error' }))
      .finally(() => setDownloading(false));
  };

  return (
    <Card title={texts.title}>
      <div className={styles.toolbar}>
        <div className={styles.views} role="group" aria-label={texts.views}>
          {(['session', 'student'] as const).map((option) => (
            <Button
              key={option}
              size="sm"
              variant={view === option ? 'primary' : 'secondary'}
              aria-pressed={view === option}
              onClick={() => setView(option)}
            >
              {option === 'session' ? texts.bySession : texts.byStudent}
            </Button>
          ))}
        </div>
        <Button size="sm" variant="secondary" disabled={downloading} onClick={download}>
          {downloading ? texts.downloading : texts.download}
        </Button>
      </div>
      {attendance.isError && (
        <p role="alert" className={styles.failed}>
          {texts.loadFailed}
        </p>
      )}
      {data !== undefined && data.sessions.length === 0 && <p className={styles.none}>{texts.empty}</p>}
      {data !== undefined && data.sessions.length > 0 && view === 'session' && (
        <AttendanceBySession attendance={data} />
      )}
      {data !== undefined && data.sessions.length > 0 && view === 'student' && (
        <AttendanceByStudent attendance={data} />
      )}
    </Card>
  );
}
