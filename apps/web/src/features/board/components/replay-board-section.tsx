import { useSessionBoard } from '../api/chapters.ts';
import { ChapterList } from './chapter-list.tsx';
import { ReplayBoard } from './replay-board.tsx';
import styles from './replay-board-section.module.css';

/**
 * Under a replay's player: the material and its ink at the player's moment, with the chapters beside them.
 * A session that never had a material on stage shows nothing here.
 */
export function ReplayBoardSection({
  classId,
  sessionId,
  timeMs,
  onSeek,
  editable,
}: {
  classId: number;
  sessionId: number;
  timeMs: number;
  onSeek: (seconds: number) => void;
  editable: boolean;
}) {
  const board = useSessionBoard(classId, sessionId).data;
  if (!board || board.stages.every((stage) => stage.material_id === null)) return null;
  return (
    <div className={styles.section}>
      <ReplayBoard classId={classId} board={board} timeMs={timeMs} />
      <ChapterList
        classId={classId}
        sessionId={sessionId}
        timeMs={timeMs}
        onSeek={onSeek}
        editable={editable}
      />
    </div>
  );
}
