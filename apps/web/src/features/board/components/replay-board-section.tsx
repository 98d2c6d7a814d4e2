import { useSessionBoard } from '../api/session-board.ts';
import { ReplayBoard } from './replay-board.tsx';
import styles from './replay-board-section.module.css';

/**
 * Under a replay's player: the material and its ink at the player's moment. A session that never had a
 * material on stage shows nothing here.
 */
export function ReplayBoardSection({
  classId,
  sessionId,
  timeMs,
}: {
  classId: number;
  sessionId: number;
  timeMs: number;
}) {
  const board = useSessionBoard(classId, sessionId).data;
  if (!board || board.stages.every((stage) => stage.material_id === null)) return null;
  return (
    <div className={styles.section}>
      <ReplayBoard classId={classId} board={board} timeMs={timeMs} />
    </div>
  );
}
