import { Button } from '../../../components/ui/button.tsx';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/ui/icons.tsx';
import { BOARD_TEXTS as T } from '../texts.ts';
import styles from './presenter.module.css';

/** '이전 페이지', 'n / N 페이지', '다음 페이지'. */
export function PageNavigation({
  page,
  count,
  onGo,
}: {
  page: number;
  count: number;
  onGo: (delta: number) => void;
}) {
  return (
    <div className={styles.row}>
      <Button
        size="sm"
        variant="secondary"
        aria-label={T.previous}
        disabled={page <= 1}
        onClick={() => onGo(-1)}
      >
        <ChevronLeftIcon />
      </Button>
      <span className={styles.pageNumber} aria-live="polite">
        {T.page(page, Math.max(page, count))}
      </span>
      <Button
        size="sm"
        variant="secondary"
        aria-label={T.next}
        disabled={page >= count}
        onClick={() => onGo(1)}
      >
        <ChevronRightIcon />
      </Button>
    </div>
  );
}
