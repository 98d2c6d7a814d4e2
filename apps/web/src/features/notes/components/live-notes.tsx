import { NOTE_TEXTS as T } from '../texts.ts';
import { NotesPanel } from './notes-panel.tsx';
import styles from './notes.module.css';

/**
 * The live room's small notes tab (students): folded until opened, then the notes panel pinned to the lecture's
 * now, so each note shows at its moment in the replay.
 */
export function LiveNotes({
  classId,
  className,
  sessionId,
}: {
  classId: number;
  className?: string | undefined;
  sessionId: number;
}) {
  return (
    <details className={styles.live}>
      <summary>{T.notes}</summary>
      <NotesPanel classId={classId} className={className} sessionId={sessionId} />
    </details>
  );
}
