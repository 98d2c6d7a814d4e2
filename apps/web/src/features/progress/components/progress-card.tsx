import { Card } from '../../../components/ui/card.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { sessionTitle } from '../../../lib/session-title.ts';
import { useClassProgress } from '../api/get-progress.ts';
import { PROGRESS_TEXTS } from '../texts.ts';
import { ClassProgressSummary } from './class-progress-summary.tsx';
import styles from './progress.module.css';

const texts = PROGRESS_TEXTS;

/** The student dashboard's '진도율': the class's total, '이어보기', and each replay's share watched. */
export function ProgressCard({ classId }: { classId: number }) {
  const progress = useClassProgress(classId);
  const data = progress.data;
  return (
    <Card title={texts.title}>
      {progress.isError && (
        <p role="alert" className={styles.failed}>
          {texts.loadFailed}
        </p>
      )}
      {data !== undefined && (
        <>
          <ClassProgressSummary classId={classId} label={texts.classBar} progress={data} />
          {data.sessions.length > 0 && (
            <ul className={styles.replays}>
              {data.sessions.map((session) => {
                const title = sessionTitle(session.title, session.started_at);
                return (
                  <li key={session.session_id} className={styles.replay}>
                    <span className={styles.replayTitle}>{title}</span>
                    <ProgressBar value={session.percent / 100} label={texts.barLabel(title)} />
                    <span className={styles.percent}>
                      {session.completed ? texts.completed : texts.percent(session.percent)}
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </Card>
  );
}
