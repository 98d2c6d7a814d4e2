import { Link } from 'react-router';
import type { SessionItem } from '@sea/contract/sessions';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDuration, formatDateTime } from '../../../lib/format-date-time.ts';
import { sessionTitle } from '../../../lib/session-title.ts';
import { gapsText, sessionStatus } from '../session-status.ts';
import { REPLAY_TEXTS } from '../texts.ts';
import { SessionTeacherActions } from './session-teacher-actions.tsx';
import styles from './session-list.module.css';

/** One session of the list: its name, when and how long, its state, and what can be done with it. */
export function SessionRow({
  classId,
  session,
  role,
}: {
  classId: number;
  session: SessionItem;
  role: 'teacher' | 'student';
}) {
  const status = sessionStatus(session.recording);
  const gaps = gapsText(session.recording);
  const title = sessionTitle(session.recording.title, session.started_at);
  const titled = session.recording.title?.trim();
  const when = [
    titled ? formatDateTime(session.started_at) : null,
    session.ended_at === null ? REPLAY_TEXTS.live : REPLAY_TEXTS.duration(formatDuration(session.duration_s)),
  ].filter(Boolean);
  const replayTo =
    role === 'teacher'
      ? paths.replayTeacher.to(classId, session.id)
      : paths.replayStudent.to(classId, session.id);
  return (
    <li className={styles.item}>
      <div className={styles.main}>
        <p className={styles.title}>
          {title}
          {session.recording.hidden && <span className={styles.hiddenBadge}>{REPLAY_TEXTS.hiddenBadge}</span>}
        </p>
        <p className={styles.meta}>{when.join(' · ')}</p>
        {status.progress !== null && (
          <ProgressBar value={status.progress / 100} label={REPLAY_TEXTS.processingLabel} />
        )}
        {status.error !== null && <p className={styles.error}>{status.error}</p>}
        {gaps !== null && <p className={styles.meta}>{gaps}</p>}
      </div>
      <div className={styles.side}>
        {status.tone === 'ready' ? (
          <Link
            className={buttonClassName({ size: 'sm' })}
            to={replayTo}
            aria-label={REPLAY_TEXTS.watchLabel(title)}
          >
            {REPLAY_TEXTS.watch}
          </Link>
        ) : (
          <span className={`${styles.state} ${styles[status.tone]}`}>{status.label}</span>
        )}
      </div>
      {role === 'teacher' &&
        session.recording.state !== 'none' &&
        session.recording.state !== 'recording' && (
          <SessionTeacherActions classId={classId} session={session} title={title} />
        )}
    </li>
  );
}
