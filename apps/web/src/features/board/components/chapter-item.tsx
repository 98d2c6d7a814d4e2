import { useState } from 'react';
import { CHAPTER_TITLE_MAX, type Chapter } from '@sea/contract/board';
import { Button } from '../../../components/ui/button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useRenameChapter } from '../api/chapters.ts';
import { formatOffset } from '../format-offset.ts';
import { BOARD_TEXTS as T } from '../texts.ts';
import styles from './replay-board.module.css';

/** One chapter: its time and title, which seek there; for the teacher, '챕터 이름 바꾸기' inline. */
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
  onSeek: (seconds: number) => void;
  editable: boolean;
}) {
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(chapter.title);
  const rename = useRenameChapter(classId, sessionId);
  const notify = useNotify();
  if (renaming) {
    return (
      <li className={styles.chapter}>
        <form
          className={styles.rename}
          onSubmit={(event) => {
            event.preventDefault();
            rename.mutate(
              { id: chapter.id, title: title.trim() },
              {
                onSuccess: () => setRenaming(false),
                onError: (error) =>
                  notify((isHttpError(error) && error.messageKor) || T.chaptersFailed, { tone: 'error' }),
              },
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
          <Button type="submit" size="sm" disabled={rename.isPending}>
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
      <button
        type="button"
        className={styles.seek}
        aria-current={current}
        onClick={() => onSeek(chapter.offset_ms / 1000)}
      >
        <span className={styles.time}>{formatOffset(chapter.offset_ms)}</span>
        <span>{chapter.title}</span>
      </button>
      {editable && (
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
      )}
    </li>
  );
}
