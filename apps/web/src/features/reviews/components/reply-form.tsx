import { useState, type FormEvent } from 'react';
import { REVIEW_REPLY_MAX, ReviewReplySchema } from '@sea/contract/reviews';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { REVIEW_TEXTS } from '../texts.ts';
import styles from './review-form.module.css';

/** The teacher's one reply to a review. */
export function ReplyForm({
  busy,
  onSubmit,
  onCancel,
}: {
  busy: boolean;
  onSubmit: (content: string) => void;
  onCancel: () => void;
}) {
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | undefined>();
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = ReviewReplySchema.safeParse({ content });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    onSubmit(parsed.data.content);
  }
  return (
    <form className={styles.form} onSubmit={submit} aria-label={REVIEW_TEXTS.replyTitle} noValidate>
      <FormField
        label={REVIEW_TEXTS.replyLabel}
        required
        error={error}
        count={{ text: content, max: REVIEW_REPLY_MAX }}
      >
        {(control) => (
          <textarea
            {...control}
            rows={3}
            value={content}
            onChange={(event) => setContent(event.target.value)}
          />
        )}
      </FormField>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onCancel}>
          {REVIEW_TEXTS.cancel}
        </Button>
        <Button type="submit" disabled={busy}>
          {REVIEW_TEXTS.replySubmit}
        </Button>
      </div>
    </form>
  );
}
