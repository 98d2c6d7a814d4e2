import { useState, type FormEvent } from 'react';
import { REVIEW_CONTENT_MAX, ReviewCreateSchema, type ReviewCreate } from '@sea/contract/reviews';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { StarIcon } from '../../../components/ui/icons.tsx';
import { REVIEW_TEXTS } from '../texts.ts';
import styles from './review-form.module.css';

export type ReviewFormProps = {
  title: string;
  initial?: { rating: number; content: string };
  submitLabel: string;
  busy: boolean;
  /** The server's message for a refused save. */
  error?: string | null;
  onSubmit: (review: ReviewCreate) => void;
  onCancel?: () => void;
};

/** Stars (1-5, as radio buttons) and the text, checked with the contract's rules before they are sent. */
export function ReviewForm({
  title,
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: ReviewFormProps) {
  const [rating, setRating] = useState(initial?.rating ?? 0);
  const [content, setContent] = useState(initial?.content ?? '');
  const [errors, setErrors] = useState<{ rating?: string; content?: string }>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = ReviewCreateSchema.safeParse({ rating, content });
    if (!parsed.success) {
      const found: { rating?: string; content?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'rating' || field === 'content') && found[field] === undefined)
          found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    onSubmit(parsed.data);
  }

  return (
    <form className={styles.form} onSubmit={submit} aria-label={title} noValidate>
      <fieldset className={styles.stars} aria-describedby={errors.rating ? 'review-rating-error' : undefined}>
        <legend className={styles.legend}>{REVIEW_TEXTS.ratingLabel}</legend>
        {[1, 2, 3, 4, 5].map((star) => (
          <label key={star} className={styles.star}>
            <input
              type="radio"
              name="rating"
              value={star}
              checked={rating === star}
              onChange={() => setRating(star)}
              className="visually-hidden"
            />
            <StarIcon width={28} height={28} className={star <= rating ? styles.on : styles.off} />
            <span className="visually-hidden">{REVIEW_TEXTS.ratingOption(star)}</span>
          </label>
        ))}
        {errors.rating && (
          <p id="review-rating-error" className={styles.error}>
            {errors.rating}
          </p>
        )}
      </fieldset>
      <FormField
        label={REVIEW_TEXTS.contentLabel}
        required
        hint={REVIEW_TEXTS.contentHint}
        error={errors.content}
        count={{ text: content, max: REVIEW_CONTENT_MAX }}
      >
        {(control) => (
          <textarea
            {...control}
            rows={4}
            value={content}
            onChange={(event) => setContent(event.target.value)}
          />
        )}
      </FormField>
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
      <div className={styles.actions}>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            {REVIEW_TEXTS.cancel}
          </Button>
        )}
        <Button type="submit" disabled={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
