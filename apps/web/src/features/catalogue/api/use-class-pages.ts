import { useInfiniteQuery } from '@tanstack/react-query';
import type { ClassTarget } from '@sea/contract/classes';
import { classKeys, type ClassSearch } from '../../../lib/class-keys.ts';
import { fetchClassListPage, type ClassListPage } from './class-page.ts';

/** The next page index, or undefined when the last page came back empty (product-spec section 4). */
export function nextClassPage(lastPage: ClassListPage, lastPageIndex: number): number | undefined {
  return lastPage.items.length === 0 ? undefined : lastPageIndex + 1;
}

/** An infinite class list from page 0; pages are appended and loading ends at the first empty page. */
export function useClassPages(target: ClassTarget | null, category: number | null, search: ClassSearch = {}) {
  return useInfiniteQuery({
    queryKey: classKeys.list(target ?? 'all', category, search),
    queryFn: ({ pageParam, signal }) =>
      fetchClassListPage({ page: pageParam, category, target, ...search }, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastPageIndex) => nextClassPage(lastPage, lastPageIndex),
  });
}
