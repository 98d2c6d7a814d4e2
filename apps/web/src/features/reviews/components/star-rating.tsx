import { StarIcon } from '../../../components/ui/icons.tsx';
import { REVIEW_TEXTS } from '../texts.ts';
import styles from './star-rating.module.css';

/** Five stars, `rating` of them filled, read out as 'n of 5'. */
export function StarRating({ rating, size = 16 }: { rating: number; size?: number }) {
  return (
    <span className={styles.stars} role="img" aria-label={REVIEW_TEXTS.stars(Math.round(rating * 10) / 10)}>
      {[1, 2, 3, 4, 5].map((star) => (
        <StarIcon
          key={star}
          width={size}
          height={size}
          className={star <= Math.round(rating) ? styles.filled : styles.empty}
        />
      ))}
    </span>
  );
}
