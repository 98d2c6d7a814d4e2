import type { ClassItem } from '@sea/contract/classes';
import { StarIcon } from '../../../components/ui/icons.tsx';
import { CLASS_TEXTS } from '../texts.ts';
import styles from './class-stats.module.css';

const texts = CLASS_TEXTS.info;

/** The class page's social proof: the real student count, and the mean stars with the review count. */
export function ClassStats({
  item,
}: {
  item: Pick<ClassItem, 'student_count' | 'rating_average' | 'review_count'>;
}) {
  return (
    <p className={styles.stats}>
      {item.rating_average !== null && item.review_count > 0 ? (
        <span className={styles.rating}>
          <StarIcon width={16} height={16} className={styles.star} />
          <span>{texts.rating(item.rating_average, item.review_count)}</span>
        </span>
      ) : (
        <span>{texts.noReviews}</span>
      )}
      <span>{texts.students(item.student_count)}</span>
    </p>
  );
}
