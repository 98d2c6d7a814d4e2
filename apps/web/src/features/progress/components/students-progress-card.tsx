import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { downloadProgressCsv, useStudentsProgress } from '../api/get-progress.ts';
import { PROGRESS_TEXTS } from '../texts.ts';
import styles from './progress.module.css';

const texts = PROGRESS_TEXTS;

/** The teacher dashboard's '수강생 진도율': each student's share of the replays watched, and the CSV. */
export function StudentsProgressCard({ classId }: { classId: number }) {
  const progress = useStudentsProgress(classId);
  const notify = useNotify();
  const [downloading, setDownloading] = useState(false);
  const students = progress.data?.students;

  const download = () => {
    setDownloading(true);
    downloadProgressCsv(classId)
      .catch(() => notify(texts.downloadFailed, { tone: 'error' }))
      .finally(() => setDownloading(false));
  };

  return (
    <Card title={texts.studentsTitle}>
      <div className={styles.toolbar}>
        <Button size="sm" variant="secondary" disabled={downloading} onClick={download}>
          {downloading ? texts.downloading : texts.download}
        </Button>
      </div>
      {progress.isError && (
        <p role="alert" className={styles.failed}>
          {texts.loadFailed}
        </p>
      )}
      {students !== undefined && students.length === 0 && <p className={styles.note}>{texts.noStudents}</p>}
      {students !== undefined && students.length > 0 && (
        <div className={styles.scroll}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{texts.student}</th>
                <th scope="col">{texts.progress}</th>
                <th scope="col">{texts.completedReplays}</th>
              </tr>
            </thead>
            <tbody>
              {students.map((student) => (
                <tr key={student.user_id}>
                  <th scope="row">{student.nickname}</th>
                  <td className={styles.barCell}>
                    <span className={styles.line}>
                      <span className={styles.bar}>
                        <ProgressBar
                          value={student.class_percent / 100}
                          label={texts.barLabel(student.nickname)}
                        />
                      </span>
                      <span className={styles.percent}>{texts.percent(student.class_percent)}</span>
                    </span>
                  </td>
                  <td>
                    {student.sessions.filter((session) => session.completed).length} /{' '}
                    {student.sessions.length}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
