import { formatClock } from '../../../lib/format-date-time.ts';
import { useChapters } from '../api/chapters.ts';
import { CHAPTER_TEXTS as T } from '../texts.ts';
import { currentChapter } from './chapter-list.tsx';
import styles from './chapters.module.css';

/**
 * The chapters on the player's timeline: a mark where each starts along the replay's length, which seeks
 * there; the one playing is marked. Nothing until the length is known.
 */
export function ChapterMarks({
  classId,
  sessionId,
  timeMs,
  durationMs,
  onSeek,
}: {
  classId: number;
  sessionId: number;
  timeMs: number;
  durationMs: number;
  onSeek: (seconds: number) => void;
}) {
  const items = useChapters(classId, sessionId).data;
  if (items === undefined || items.length === 0 || !(durationMs > 0)) return null;
  const current = currentChapter(items, timeMs);
  return (
    <div className={styles.marks} role="group" aria-label={T.timeline}>
      {items.map((chapter) => (
        <button
          key={chapter.id}
          type="button"
          className={styles.mark}
          style={{ left: `${Math.min(100, (chapter.offset_ms / durationMs) * 100)}%` }}
          aria-current={chapter.id === current}
          aria-label={T.seekTo(chapter.title, formatClock(chapter.offset_ms / 1000))}
          title={chapter.title}
          onClick={() => onSeek(chapter.offset_ms / 1000)}
        />
      ))}
    </div>
  );
}
