import { Card } from '../../../components/ui/card.tsx';
import { RetryButton } from '../../../components/ui/load-failed.tsx';
import { useSessions } from '../api/get-sessions.ts';
import { REPLAY_TEXTS } from '../texts.ts';
import { SessionRow } from './session-row.tsx';
import styles from './session-list.module.css';

/**
 * The class's live sessions on a dashboard, newest first: date, length and where the recording stands, with
 * the way to the replay when it is ready. The teacher also renames, hides and deletes replays. The list
 * refreshes by itself while a session records or is being processed (see `useSessions`).
 */
export function SessionList({ classId, role }: { classId: number; role: 'teacher' | 'student' }) {
  const sessions = useSessions(classId);
  const items = sessions.data;
  return (
    <Card title={REPLAY_TEXTS.listTitle}>
      {sessions.isError && (
        <p role="alert" className={styles.failed}>
          {REPLAY_TEXTS.listFailed} <RetryButton onRetry={() => void sessions.refetch()} />
        </p>
      )}
      {items !== undefined && items.length === 0 && <p className={styles.empty}>{REPLAY_TEXTS.listEmpty}</p>}
      {items !== undefined && items.length > 0 && (
        <ol className={styles.list}>
          {items.map((session) => (
            <SessionRow key={session.id} classId={classId} session={session} role={role} />
          ))}
        </ol>
      )}
    </Card>
  );
}
