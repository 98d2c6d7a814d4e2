import type { MaterialPage } from '@sea/contract/materials';
import { BOARD_TEXTS as T } from '../texts.ts';
import styles from './presenter.module.css';

/**
 * The pages of what is on stage as a strip of thumbnails (the whiteboard's as numbered blank pages); a tap puts
 * the page on stage. The current page is marked for the eye and for screen readers.
 */
export function PageThumbnails({
  pages,
  count,
  current,
  onSelect,
}: {
  /** The material's pages; undefined for the whiteboard (`count` blank pages). */
  pages: readonly MaterialPage[] | undefined;
  count: number;
  current: number | null;
  onSelect: (page: number) => void;
}) {
  const numbers = Array.from({ length: count }, (_, index) => index + 1);
  return (
    <ol className={styles.thumbnails} aria-label={T.thumbnails}>
      {numbers.map((number) => {
        const page = pages?.find((candidate) => candidate.number === number);
        return (
          <li key={number}>
            <button
              type="button"
              className={styles.thumbnail}
              aria-current={current === number ? 'page' : undefined}
              aria-label={
                page?.title ? `${number}. ${page.title}` : pages ? T.pageImage(number) : T.blankPage(number)
              }
              onClick={() => onSelect(number)}
            >
              {page ? (
                <img
                  src={page.thumbnail_url}
                  alt=""
                  loading="lazy"
                  style={{ aspectRatio: `${page.width} / ${page.height}` }}
                />
              ) : (
                <span className={styles.blankThumbnail} />
              )}
              <span className={styles.thumbnailNumber}>{number}</span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
