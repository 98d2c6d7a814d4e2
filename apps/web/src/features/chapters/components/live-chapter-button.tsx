import { Button } from '../../../components/ui/button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { formatClock } from '../../../lib/format-date-time.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useChapterWrites, useChapters } from '../api/chapters.ts';
import { CHAPTER_TEXTS as T } from '../texts.ts';
import { ChapterItem } from './chapter-item.tsx';
import styles from './chapters.module.css';

/**
 * The live room's '여기서 새 챕터' (teacher): a mark at the lecture's now by the server's clock, the same place
 * the replay will show it; under it, folded, the lecture's chapters so far to rename or remove at once (or
 * later on the replay page).
 */
export function LiveChapterButton({ classId, sessionId }: { classId: number; sessionId: number }) {
  return (
    <div className={styles.live}>
      <MarkButton classId={classId} sessionId={sessionId} />
      <LiveChapterList classId={classId} sessionId={sessionId} />
    </div>
  );
}

function MarkButton({ classId, sessionId }: { classId: number; sessionId: number }) {
  const { add } = useChapterWrites(classId, sessionId);
  const notify = useNotify();
  return (
    <Button
      variant="secondary"
      size="sm"
      disabled={add.isPending}
      onClick={() =>
        add.mutate(
          { title: T.newChapter },
          {
            onSuccess: (chapters) => {
              const mark = chapters.filter((chapter) => chapter.kind === 'mark').at(-1);
              notify(T.marked(formatClock((mark?.offset_ms ?? 0) / 1000)));
            },
            onError: (error) =>
              notify((isHttpError(error) && error.messageKor) || T.changeFailed, { tone: 'error' }),
          },
        )
      }
    >
      {T.markHere}
    </Button>
  );
}

/** The lecture's chapters so far, folded under a count, each renamed or removed in place. */
function LiveChapterList({ classId, sessionId }: { classId: number; sessionId: number }) {
  const chapters = useChapters(classId, sessionId).data ?? [];
  if (chapters.length === 0) return null;
  return (
    <details className={styles.liveList}>
      <summary>{T.liveChapters(chapters.length)}</summary>
      <ol className={styles.chapterList}>
        {chapters.map((chapter) => (
          <ChapterItem
            key={chapter.id}
            classId={classId}
            sessionId={sessionId}
            chapter={chapter}
            current={false}
            editable
          />
        ))}
      </ol>
    </details>
  );
}
