import type { MaterialPage } from '@sea/contract/materials';
import { BOARD_TEXTS as T } from '../texts.ts';
import styles from './presenter.module.css';

/**
 * The pages of what is on stage as a strip of thumbnails (the whiteboard's as numbered blank pages); a tap puts
 * the page on stage. The current page, and the pages the find box found, are marked for the eye and for screen readers.
 */
export function PageThumbnails({
  pages,
  count,
  current,
  found,
  onSelect,
}: {
  /** The material's pages; undefined for the whiteboard (`count` blank pages). */
  pages: readonly MaterialPage[] | undefined;
  count: number;
  current: number | null;
  /** Pages the find box found: highlighted. */
  found?: ReadonlySet<number>;
  onSelect: (page: number) => void;
}) {
  const numbers = Array.from({ length: count }, (_, index) => index + 1);
  return (
    <ol className={styles.thumbnails} aria-label={T.thumbnails}>
      {numbers.map((number) => {
        const page = pages?.find((candidate) => candidate.number === number);
        const name = page?.title
          ? `${number}. ${page.title}`
          : pages
            ? T.pageImage(number)
            : T.blankPage(number);
        return (
          <li key={number}>
            <button
              type="button"
              className={styles.thumbnail}
              aria-current={current === number ? 'page' : undefined}
              aria-label={found?.has(number) ? `${name} (${T.foundMark})` : name}
              data-found={found?.has(number) ? '' : undefined}
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
