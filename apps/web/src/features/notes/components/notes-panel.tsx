import { Button } from '../../../components/ui/button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { formatClock } from '../../../lib/format-date-time.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { downloadNotes, useNoteWrites, useNotes } from '../api/notes.ts';
import { NOTE_TEXTS as T } from '../texts.ts';
import { NoteForm } from './note-form.tsx';
import { NoteItem } from './note-item.tsx';
import styles from './notes.module.css';

/**
 * The viewer's own notes beside a replay (or in the live room): each at its time, which seeks there (in the
 * replay); a new one is pinned to `timeMs`, or without it (live) to the lecture's now by the server's clock.
 * Notes are private; the export saves every note of the class as Markdown.
 */
export function NotesPanel({
  classId,
  className,
  sessionId,
  timeMs,
  onSeek,
}: {
  classId: number;
  /** The class's name, for the export's file name ('파동 물리 메모.md'); '강의 메모.md' while unknown. */
  className?: string | undefined;
  sessionId: number;
  /** The player's time; absent in the live room. */
  timeMs?: number;
  onSeek?: (seconds: number) => void;
}) {
  const notes = useNotes(classId, sessionId);
  const writes = useNoteWrites(classId, sessionId);
  const notify = useNotify();
  const failed = (error: unknown) => {
    notify((isHttpError(error) && error.messageKor) || T.writeFailed, { tone: 'error' });
    return false;
  };
  const pending = writes.add.isPending || writes.change.isPending || writes.remove.isPending;
  return (
    <section className={styles.notes} aria-label={T.notes}>
      <div className={styles.header}>
        <h2>{T.notes}</h2>
        <Button
          size="sm"
          variant="secondary"
          onClick={() =>
            downloadNotes(classId, className).catch((error: unknown) =>
              notify((isHttpError(error) && error.messageKor) || T.exportFailed, { tone: 'error' }),
            )
          }
        >
          {T.export}
        </Button>
      </div>
      <p className={styles.muted}>{T.private}</p>
      <NoteForm
        submitLabel={timeMs === undefined ? T.addNow : T.addAt(formatClock(timeMs / 1000))}
        pending={writes.add.isPending}
        onSubmit={(content) =>
          writes.add
            .mutateAsync({
              content,
              ...(timeMs === undefined ? {} : { offset_ms: Math.max(0, Math.floor(timeMs)) }),
            })
            .then(() => {
              if (timeMs === undefined) notify(T.saved);
              return true;
            }, failed)
        }
      />
      {notes.isError && (
        <p role="alert" className={styles.failed}>
          {T.loadFailed}
        </p>
      )}
      {notes.data !== undefined && notes.data.length === 0 && <p className={styles.muted}>{T.noNotes}</p>}
      {notes.data !== undefined && notes.data.length > 0 && (
        <ol className={styles.list}>
          {notes.data.map((note) => (
            <NoteItem
              key={note.id}
              note={note}
              {...(onSeek === undefined ? {} : { onSeek })}
              pending={pending}
              onChange={(content) =>
                writes.change.mutateAsync({ id: note.id, content }).then(() => true, failed)
              }
              onRemove={() => writes.remove.mutate(note.id, { onError: failed })}
            />
          ))}
        </ol>
      )}
    </section>
  );
}
