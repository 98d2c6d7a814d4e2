import { useEffect, useEffectEvent } from 'react';

/** The next page loads when the bottom of the page is this close (product-spec section 4). */
export const NEAR_BOTTOM_PX = 500;

/** True when the viewport's bottom edge is within {@link NEAR_BOTTOM_PX} of the page's bottom. */
export function isNearBottom(): boolean {
  const page = document.documentElement;
  return page.scrollHeight - (window.scrollY + window.innerHeight) <= NEAR_BOTTOM_PX;
}

export type InfiniteScrollState = {
  hasNextPage: boolean;
  isFetching: boolean;
  /** Pages loaded so far: each new page is a new chance to be near the bottom (a fast answer may never
   * render a fetching state, so `isFetching` alone may not change). */
  pageCount: number;
  fetchNextPage: () => unknown;
};

/**
 * Loads the next page when the visitor scrolls (or resizes) to within 500 px of the bottom, while no load
 * is in progress and more pages exist. Checks once right away too: a short first page may not fill the
 * screen, and then no scroll event would ever come.
 */
export function useInfiniteScroll({
  hasNextPage,
  isFetching,
  pageCount,
  fetchNextPage,
}: InfiniteScrollState): void {
  const loadNext = useEffectEvent(() => fetchNextPage());
  useEffect(() => {
    if (!hasNextPage || isFetching) return undefined;
    let requested = false;
    function check() {
      if (requested || !isNearBottom()) return;
      requested = true;
      loadNext();
    }
    check();
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
    };
  }, [hasNextPage, isFetching, pageCount]);
}
