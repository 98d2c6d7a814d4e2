import type { ClassProgress } from '@sea/contract/progress';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { paths } from '../../../config/paths.ts';
import { sessionTitle } from '../../../lib/session-title.ts';
import { resumeTarget } from '../resume-target.ts';
import { PROGRESS_TEXTS } from '../texts.ts';
import styles from './progress.module.css';

const texts = PROGRESS_TEXTS;

/**
 * A student's progress in one class: a bar with the class's percent, how many replays are completed, and
 * '이어보기', which opens the replay to go on with (the replay page starts where the student stopped).
 */
export function ClassProgressSummary({
  classId,
  label,
  progress,
}: {
  classId: number;
  /** The bar's accessible name. */
  label: string;
  progress: ClassProgress;
}) {
  const navigate = useNavigate();
  const target = resumeTarget(progress);
  if (target === null) return <p className={styles.note}>{texts.noReplays}</p>;
  const completed = progress.sessions.filter((session) => session.completed).length;
  return (
    <div className={styles.summary}>
      <div className={styles.line}>
        <span className={styles.bar}>
          <ProgressBar value={progress.class_percent / 100} label={label} />
        </span>
        <span className={styles.percent}>{texts.percent(progress.class_percent)}</span>
        <Button
          size="sm"
          aria-label={texts.resumeLabel(sessionTitle(target.title, target.started_at))}
          onClick={() => navigate(paths.replayStudent.to(classId, target.session_id))}
        >
          {texts.resume}
        </Button>
      </div>
      <p className={styles.note}>{texts.completedCount(completed, progress.sessions.length)}</p>
    </div>
  );
}
