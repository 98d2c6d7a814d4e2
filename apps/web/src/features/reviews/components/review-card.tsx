import { useState } from 'react';
import type { ReviewItem } from '@sea/contract/reviews';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDangerButton } from '../../../components/ui/confirm-danger-button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useDeleteReview, useReplyToReview, useUpdateReview } from '../api/review-mutations.ts';
import { REVIEW_TEXTS } from '../texts.ts';
import { ReplyForm } from './reply-form.tsx';
import { ReviewForm } from './review-form.tsx';
import { StarRating } from './star-rating.tsx';
import styles from './review-card.module.css';

const DATE = new Intl.DateTimeFormat('ko-KR', { dateStyle: 'long', timeZone: 'Asia/Seoul' });
/** An edit later than this after posting shows '수정됨'. */
const EDITED_AFTER_MS = 1_000;

export type ReviewCardProps = {
  review: ReviewItem;
  /** The caller wrote it: edit and delete. */
  mine: boolean;
  /** The caller teaches the class: reply once. */
  teacher: boolean;
};

/** One review: author, stars, date, text, the teacher's reply, and the actions the caller may take. */
export function ReviewCard({ review, mine, teacher }: ReviewCardProps) {
  const notify = useNotify();
  const [mode, setMode] = useState<'view' | 'edit' | 'reply'>('view');
  const update = useUpdateReview(review.class_id);
  const removal = useDeleteReview(review.class_id);
  const reply = useReplyToReview(review.class_id);
  const edited = Date.parse(review.updated_at) - Date.parse(review.created_at) > EDITED_AFTER_MS;

  if (mode === 'edit') {
    return (
      <ReviewForm
        title={REVIEW_TEXTS.editTitle}
        initial={{ rating: review.rating, content: review.content }}
        submitLabel={REVIEW_TEXTS.save}
        busy={update.isPending}
        error={isHttpError(update.error) ? (update.error.messageKor ?? REVIEW_TEXTS.saveFailed) : null}
        onCancel={() => setMode('view')}
        onSubmit={(body) =>
          update.mutate(
            { reviewId: review.id, body },
            {
              onSuccess: () => {
                notify(REVIEW_TEXTS.saved, { tone: 'success' });
                setMode('view');
              },
            },
          )
        }
      />
    );
  }

  return (
    <article className={styles.card} aria-label={review.nickname}>
      <header className={styles.head}>
        <Avatar name={review.nickname} src={review.profile_image_path} size={36} alt="" />
        <div className={styles.who}>
          <strong>
            {review.nickname}
            {mine && <span className={styles.badge}>{REVIEW_TEXTS.mine}</span>}
          </strong>
          <span className={styles.meta}>
            <StarRating rating={review.rating} size={14} />
            <time dateTime={review.created_at}>{DATE.format(new Date(review.created_at))}</time>
            {edited && <span>{REVIEW_TEXTS.edited}</span>}
          </span>
        </div>
      </header>
      <p className={styles.content}>{review.content}</p>
      {review.reply !== null && (
        <div className={styles.reply}>
          <strong>{REVIEW_TEXTS.replyTitle}</strong>
          <p className={styles.content}>{review.reply}</p>
        </div>
      )}
      {mode === 'reply' && (
        <ReplyForm
          busy={reply.isPending}
          onCancel={() => setMode('view')}
          onSubmit={(content) =>
            reply.mutate(
              { reviewId: review.id, content },
              {
                onSuccess: () => {
                  notify(REVIEW_TEXTS.replied, { tone: 'success' });
                  setMode('view');
                },
                onError: () => notify(REVIEW_TEXTS.replyFailed, { tone: 'error' }),
              },
            )
          }
        />
      )}
      {mode === 'view' && (mine || (teacher && review.reply === null)) && (
        <div className={styles.actions}>
          {mine && (
            <>
              <Button size="sm" variant="secondary" onClick={() => setMode('edit')}>
                {REVIEW_TEXTS.edit}
              </Button>
              <ConfirmDangerButton
                ask={{
                  title: REVIEW_TEXTS.deleteTitle,
                  body: REVIEW_TEXTS.deleteBody,
                  confirmLabel: REVIEW_TEXTS.delete,
                }}
                size="sm"
                variant="ghost"
                busy={removal.isPending}
                onConfirm={(close) =>
                  removal.mutate(review.id, {
                    onSuccess: () => notify(REVIEW_TEXTS.deleted, { tone: 'success' }),
                    onError: () => notify(REVIEW_TEXTS.deleteFailed, { tone: 'error' }),
                    onSettled: close,
                  })
                }
              >
                {REVIEW_TEXTS.delete}
              </ConfirmDangerButton>
            </>
          )}
          {teacher && review.reply === null && (
            <Button size="sm" variant="secondary" onClick={() => setMode('reply')}>
              {REVIEW_TEXTS.replyOpen}
            </Button>
          )}
        </div>
      )}
    </article>
  );
}
