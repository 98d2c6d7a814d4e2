import { useState } from 'react';
import { CHAPTER_TITLE_MAX, type Chapter } from '@sea/contract/chapters';
import { Button } from '../../../components/ui/button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { formatClock } from '../../../lib/format-date-time.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useChapterWrites } from '../api/chapters.ts';
import { CHAPTER_TEXTS as T } from '../texts.ts';
import styles from './chapters.module.css';

/**
 * One chapter: its time and title, which seek there (in the live room, with no `onSeek`, they are only shown);
 * for the teacher, rename and remove inline.
 */
export function ChapterItem({
  classId,
  sessionId,
  chapter,
  current,
  onSeek,
  editable,
}: {
  classId: number;
  sessionId: number;
  chapter: Chapter;
  current: boolean;
  onSeek?: ((seconds: number) => void) | undefined;
  editable: boolean;
}) {
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(chapter.title);
  const writes = useChapterWrites(classId, sessionId);
  const notify = useNotify();
  const failed = (error: unknown) =>
    notify((isHttpError(error) && error.messageKor) || T.changeFailed, { tone: 'error' });
  if (renaming) {
    return (
      <li className={styles.chapter}>
        <form
          className={styles.rename}
          onSubmit={(event) => {
            event.preventDefault();
            writes.change.mutate(
              { id: chapter.id, title: title.trim() },
              { onSuccess: () => setRenaming(false), onError: failed },
            );
          }}
        >
          <input
            aria-label={T.chapterTitle}
            value={title}
            maxLength={CHAPTER_TITLE_MAX}
            autoFocus
            onChange={(event) => setTitle(event.target.value)}
          />
          <Button type="submit" size="sm" disabled={writes.change.isPending}>
            {T.save}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setRenaming(false)}>
            {T.cancel}
          </Button>
        </form>
      </li>
    );
  }
  return (
    <li className={styles.chapter}>
      {onSeek ? (
        <button
          type="button"
          className={styles.seek}
          aria-current={current}
          onClick={() => onSeek(chapter.offset_ms / 1000)}
        >
          <span className={styles.time}>{formatClock(chapter.offset_ms / 1000)}</span>
          <span>{chapter.title}</span>
        </button>
      ) : (
        <span className={styles.seek}>
          <span className={styles.time}>{formatClock(chapter.offset_ms / 1000)}</span>
          <span>{chapter.title}</span>
        </span>
      )}
      {editable && (
        <>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`${T.renameChapter}: ${chapter.title}`}
            onClick={() => {
              setTitle(chapter.title);
              setRenaming(true);
            }}
          >
            {T.renameChapter}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`${T.removeChapter}: ${chapter.title}`}
            disabled={writes.remove.isPending}
            onClick={() => writes.remove.mutate(chapter.id, { onError: failed })}
          >
            {T.removeChapter}
          </Button>
        </>
      )}
    </li>
  );
}
