import { useChapters } from '../api/chapters.ts';
import { ChapterItem } from './chapter-item.tsx';
import { BOARD_TEXTS as T } from '../texts.ts';
import styles from './replay-board.module.css';

/**
 * The replay's chapters beside the player: each page the teacher stayed on at least 10 s, by its title; a tap
 * seeks there, the current one is marked, and the teacher renames them.
 */
export function ChapterList({
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
  const chapters = useChapters(classId, sessionId);
  const items = chapters.data;
  const current = items?.findLast((chapter) => chapter.offset_ms <= timeMs)?.id ?? null;
  return (
    <section className={styles.chapters} aria-label={T.chapters}>
      <h2>{T.chapters}</h2>
      {chapters.isError && (
        <p role="alert" className={styles.failed}>
          {T.chaptersFailed}
        </p>
      )}
      {items !== undefined && items.length === 0 && <p className={styles.muted}>{T.noChapters}</p>}
      {items !== undefined && items.length > 0 && (
        <ol className={styles.chapterList}>
          {items.map((chapter) => (
            <ChapterItem
              key={chapter.id}
              classId={classId}
              sessionId={sessionId}
              chapter={chapter}
              current={chapter.id === current}
              onSeek={onSeek}
              editable={editable}
            />
          ))}
        </ol>
      )}
    </section>
  );
}
