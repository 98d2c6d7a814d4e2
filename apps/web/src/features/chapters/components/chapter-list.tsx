import { useState } from 'react';
import { CHAPTER_TITLE_MAX, type Chapter } from '@sea/contract/chapters';
import { Button } from '../../../components/ui/button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { formatClock } from '../../../lib/format-date-time.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useChapterWrites, useChapters } from '../api/chapters.ts';
import { CHAPTER_TEXTS as T } from '../texts.ts';
import { ChapterItem } from './chapter-item.tsx';
import styles from './chapters.module.css';

/** The chapter playing at `timeMs`: the last one started by then. */
export function currentChapter(chapters: readonly Chapter[] | undefined, timeMs: number): string | null {
  return chapters?.findLast((chapter) => chapter.offset_ms <= timeMs)?.id ?? null;
}

/**
 * The replay's chapters beside the player (the teacher's marks and the pages stayed on): a tap seeks there, the
 * one playing is marked; the teacher adds one at the player's time, renames and removes them.
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
  const writes = useChapterWrites(classId, sessionId);
  const notify = useNotify();
  const [title, setTitle] = useState('');
  const items = chapters.data;
  const current = currentChapter(items, timeMs);
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
      {editable && (
        <form
          className={styles.add}
          onSubmit={(event) => {
            event.preventDefault();
            writes.add.mutate(
              { offset_ms: Math.max(0, Math.floor(timeMs)), title: title.trim() || T.newChapter },
              {
                onSuccess: () => setTitle(''),
                onError: (error) =>
                  notify((isHttpError(error) && error.messageKor) || T.changeFailed, { tone: 'error' }),
              },
            );
          }}
        >
          <input
            aria-label={T.newChapterTitle}
            placeholder={T.newChapter}
            value={title}
            maxLength={CHAPTER_TITLE_MAX}
            onChange={(event) => setTitle(event.target.value)}
          />
          <Button type="submit" size="sm" disabled={writes.add.isPending}>
            {`${formatClock(timeMs / 1000)} ${T.addHere}`}
          </Button>
        </form>
      )}
    </section>
  );
}
