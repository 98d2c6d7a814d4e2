import { Button } from '../../../components/ui/button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { formatClock } from '../../../lib/format-date-time.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useChapterWrites } from '../api/chapters.ts';
import { CHAPTER_TEXTS as T } from '../texts.ts';

/**
 * The live room's '여기서 새 챕터' (teacher): a mark at the lecture's now by the server's clock, the same place
 * the replay will show it; renamed later on the replay page.
 */
export function LiveChapterButton({ classId, sessionId }: { classId: number; sessionId: number }) {
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
