import { useState } from 'react';
import type { Note } from '@sea/contract/notes';
import { Button } from '../../../components/ui/button.tsx';
import { formatClock } from '../../../lib/format-date-time.ts';
import { NOTE_TEXTS as T } from '../texts.ts';
import { NoteForm } from './note-form.tsx';
import { NoteText } from './note-text.tsx';
import styles from './notes.module.css';

/** One note: its time (which seeks there) and its text, with '고치기' and '지우기'. */
export function NoteItem({
  note,
  onSeek,
  onChange,
  onRemove,
  pending,
}: {
  note: Note;
  onSeek?: (seconds: number) => void;
  onChange: (content: string) => Promise<boolean>;
  onRemove: () => void;
  pending: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const time = formatClock(note.offset_ms / 1000);
  return (
    <li className={styles.note}>
      <div className={styles.row}>
        {onSeek === undefined ? (
          <span className={styles.time}>{time}</span>
        ) : (
          <button
            type="button"
            className={styles.time}
            aria-label={T.seekTo(time)}
            onClick={() => onSeek(note.offset_ms / 1000)}
          >
            {time}
          </button>
        )}
        {!editing && (
          <>
            <Button size="sm" variant="ghost" aria-label={T.editNote(time)} onClick={() => setEditing(true)}>
              {T.edit}
            </Button>
            <Button
              size="sm"
              variant="ghost"
              aria-label={T.removeNote(time)}
              disabled={pending}
              onClick={onRemove}
            >
              {T.remove}
            </Button>
          </>
        )}
      </div>
      {editing ? (
        <NoteForm
          initial={note.content}
          submitLabel={T.save}
          pending={pending}
          onSubmit={async (content) => {
            const saved = await onChange(content);
            if (saved) setEditing(false);
            return saved;
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <p className={styles.text}>
          <NoteText text={note.content} />
        </p>
      )}
    </li>
  );
}
