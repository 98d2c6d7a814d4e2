import cardStyles from './class-card.module.css';
import { ClassGrid } from './class-grid.tsx';
import styles from './class-grid-skeleton.module.css';

/** Placeholders in a loading grid: two rows of the desktop layout, four of the mobile column. */
export const SKELETON_CARDS = 8;

/**
 * What a class grid shows while its first page loads: grey cards of the final layout (the banner's 16:9,
 * category, name, teacher and stats lines), so nothing moves when the real cards arrive. Screen readers hear the
 * loading text once; the placeholders themselves are hidden from them.
 */
export function ClassGridSkeleton({ label, count = SKELETON_CARDS }: { label: string; count?: number }) {
  return (
    <div role="status" className={styles.wrap} data-skeleton="classes">
      <span className="visually-hidden">{label}</span>
      <div aria-hidden="true">
        <ClassGrid>
          {Array.from({ length: count }, (_, index) => (
            <li key={index}>
              <SkeletonCard />
            </li>
          ))}
        </ClassGrid>
      </div>
    </div>
  );
}

/** One grey card of the final card's shape: the 16:9 banner, then the category, name, teacher and stats lines. */
export function SkeletonCard() {
  return (
    <div className={`${cardStyles.card} ${styles.card}`}>
      <div className={`${cardStyles.bannerWrap} ${styles.shimmer}`} />
      <div className={cardStyles.body}>
        <span className={`${styles.line} ${styles.category}`} />
        <span className={`${styles.line} ${styles.name}`} />
        <span className={`${styles.line} ${styles.instructor}`} />
        <span className={`${styles.line} ${styles.stats}`} />
      </div>
    </div>
  );
}
