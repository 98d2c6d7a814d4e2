import { CLASS_ROLES } from '@sea/contract/classes';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useCreateReview } from '../api/review-mutations.ts';
import { useReviewPages, useReviewSummary } from '../api/use-reviews.ts';
import { REVIEW_TEXTS } from '../texts.ts';
import { RatingSummary } from './rating-summary.tsx';
import { ReviewCard } from './review-card.tsx';
import { ReviewForm } from './review-form.tsx';
import styles from './reviews-section.module.css';

/** The class page's reviews: summary, the student's form, then the reviews newest first, 10 at a time. */
export function ReviewsSection({ classId }: { classId: number }) {
  const notify = useNotify();
  const summary = useReviewSummary(classId);
  const pages = useReviewPages(classId);
  const create = useCreateReview(classId);
  const reviews = pages.data?.pages.flat() ?? [];
  const myReviewId = summary.data?.my_review_id ?? null;
  // The caller's role comes with the summary: a student writes, the teacher replies.
  const role = summary.data?.my_role ?? CLASS_ROLES.none;
  const canWrite = role === CLASS_ROLES.student && summary.isSuccess && myReviewId === null;

  return (
    <section className={styles.section} aria-labelledby="reviews-title">
      <h2 id="reviews-title" className={styles.title}>
        {REVIEW_TEXTS.title}
      </h2>
      {summary.data && <RatingSummary summary={summary.data} />}
      {canWrite && (
        <ReviewForm
          key={reviews.length}
          title={REVIEW_TEXTS.writeTitle}
          submitLabel={REVIEW_TEXTS.submit}
          busy={create.isPending}
          error={isHttpError(create.error) ? (create.error.messageKor ?? REVIEW_TEXTS.saveFailed) : null}
          onSubmit={(body) =>
            create.mutate(body, { onSuccess: () => notify(REVIEW_TEXTS.posted, { tone: 'success' }) })
          }
        />
      )}
      {role === CLASS_ROLES.none && <p className={styles.note}>{REVIEW_TEXTS.enrolToReview}</p>}
      {pages.isPending && <Spinner label={REVIEW_TEXTS.loading} />}
      {pages.isError && <p role="alert">{REVIEW_TEXTS.loadFailed}</p>}
      {reviews.length > 0 && (
        <div className={styles.list}>
          {reviews.map((review) => (
            <ReviewCard
              key={review.id}
              review={review}
              mine={review.id === myReviewId}
              teacher={role === CLASS_ROLES.teacher}
            />
          ))}
        </div>
      )}
      {pages.hasNextPage && (
        <Button
          variant="secondary"
          disabled={pages.isFetchingNextPage}
          onClick={() => void pages.fetchNextPage({ cancelRefetch: false })}
        >
          {REVIEW_TEXTS.more}
        </Button>
      )}
    </section>
  );
}
