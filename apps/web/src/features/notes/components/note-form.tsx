import { useState } from 'react';
import { NOTE_MAX } from '@sea/contract/notes';
import { Button } from '../../../components/ui/button.tsx';
import { NOTE_TEXTS as T } from '../texts.ts';
import styles from './notes.module.css';

/** A note's text area with its submit button; cleared after a save unless `initial` is being edited. */
export function NoteForm({
  initial = '',
  submitLabel,
  pending,
  onSubmit,
  onCancel,
}: {
  initial?: string;
  submitLabel: string;
  pending: boolean;
  /** Saves the text; resolves true when it was saved. */
  onSubmit: (content: string) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const [content, setContent] = useState(initial);
  return (
    <form
      className={styles.form}
      onSubmit={(event) => {
        event.preventDefault();
        if (content.trim() === '') return;
        void onSubmit(content.trim()).then((saved) => {
          if (saved && onCancel === undefined) setContent('');
        });
      }}
    >
      <textarea
        aria-label={T.content}
        placeholder={T.placeholder}
        value={content}
        maxLength={NOTE_MAX}
        onChange={(event) => setContent(event.target.value)}
      />
      <div className={styles.row}>
        <Button type="submit" size="sm" disabled={pending || content.trim() === ''}>
          {submitLabel}
        </Button>
        {onCancel !== undefined && (
          <Button size="sm" variant="ghost" onClick={onCancel}>
            {T.cancel}
          </Button>
        )}
      </div>
    </form>
  );
}
