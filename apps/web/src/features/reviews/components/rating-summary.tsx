import type { ReviewSummary } from '@sea/contract/reviews';
import { REVIEW_TEXTS } from '../texts.ts';
import { StarRating } from './star-rating.tsx';
import styles from './rating-summary.module.css';

/** The mean stars, the count and one bar per number of stars (5 at the top). */
export function RatingSummary({ summary }: { summary: ReviewSummary }) {
  const { rating_average: average, review_count: count, distribution } = summary;
  if (average === null || count === 0) return <p className={styles.none}>{REVIEW_TEXTS.noReviews}</p>;
  return (
    <div className={styles.summary}>
      <div className={styles.mean}>
        <strong className={styles.number} aria-hidden="true">
          {average.toFixed(1)}
        </strong>
        <span className="visually-hidden">{REVIEW_TEXTS.average(average)}</span>
        <StarRating rating={average} size={18} />
        <span className={styles.count}>{REVIEW_TEXTS.count(count)}</span>
      </div>
      <ul className={styles.bars} aria-label={REVIEW_TEXTS.summaryLabel}>
        {[5, 4, 3, 2, 1].map((stars) => {
          const n = distribution[stars - 1] ?? 0;
          return (
            <li key={stars} className={styles.row} aria-label={REVIEW_TEXTS.distributionRow(stars, n)}>
              <span aria-hidden="true">{stars}</span>
              <span className={styles.track} aria-hidden="true">
                <span className={styles.fill} style={{ width: `${(n / count) * 100}%` }} />
              </span>
              <span aria-hidden="true" className={styles.n}>
                {n}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
