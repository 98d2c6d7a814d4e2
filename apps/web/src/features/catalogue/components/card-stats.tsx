import { StarIcon } from '../../../components/ui/icons.tsx';
import { CATALOGUE_TEXTS } from '../texts.ts';
import styles from './card-stats.module.css';

export type CardStatsProps = {
  ratingAverage: number | null;
  reviewCount: number;
  studentCount: number;
};

/** A card's social proof: the mean stars with the review count (when there are reviews), and the students. */
export function CardStats({ ratingAverage, reviewCount, studentCount }: CardStatsProps) {
  return (
    <p className={styles.stats}>
      {ratingAverage !== null && reviewCount > 0 && (
        <span className={styles.rating}>
          <StarIcon width={14} height={14} className={styles.star} />
          <span aria-hidden="true">
            {ratingAverage.toFixed(1)} ({reviewCount})
          </span>
          <span className="visually-hidden">{CATALOGUE_TEXTS.rating(ratingAverage, reviewCount)}</span>
        </span>
      )}
      <span>{CATALOGUE_TEXTS.studentCount(studentCount)}</span>
    </p>
  );
}
