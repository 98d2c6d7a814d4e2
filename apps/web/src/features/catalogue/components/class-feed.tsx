import type { ReactNode } from 'react';
import type { ClassItem } from '@sea/contract/classes';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import type { useClassPages } from '../api/use-class-pages.ts';
import { CATALOGUE_TEXTS } from '../texts.ts';
import { useInfiniteScroll } from '../use-infinite-scroll.ts';
import { useListErrorNotice } from '../use-list-error-notice.ts';
import { ClassCard } from './class-card.tsx';
import type { ClassCardProps } from './class-card.tsx';
import { ClassGrid } from './class-grid.tsx';
import { ClassGridSkeleton } from './class-grid-skeleton.tsx';

/** The first row of the mobile column: its banners are the page's largest paint. */
const PRIORITY_CARDS = 2;
/** Cards likely visible without scrolling (four rows of the mobile column, two of the desktop layout). */
const EAGER_CARDS = 8;

export type ClassFeedProps = {
  /** The page's infinite query (the page owns it, e.g. to show how many classes it holds). */
  query: ReturnType<typeof useClassPages>;
  /** Props of each card (link, my-page actions). */
  cardProps?: (item: ClassItem) => Partial<ClassCardProps>;
  label?: string;
  /** A search query: its words are marked on the cards, and the empty state says nothing matched. */
  highlight?: string | undefined;
  /** What an empty list says, and the way forward it offers (a link to the next step). */
  empty?: { message: string; action?: ReactNode };
};

/** Flattens the loaded pages of an infinite class query. */
export function loadedClasses(query: ReturnType<typeof useClassPages>): ClassItem[] {
  return query.data?.pages.flatMap((page) => page.items) ?? [];
}

/** How many classes the whole list holds, as its latest page said; null before the first page. */
export function classTotal(query: ReturnType<typeof useClassPages>): number | null {
  return query.data?.pages.at(-1)?.total ?? null;
}

/** An infinitely scrolling grid of classes with its loading, failed and empty states. */
export function ClassFeed({ query, cardProps, label, highlight, empty }: ClassFeedProps) {
  const { hasNextPage, isFetching, fetchNextPage } = query;
  useInfiniteScroll({
    hasNextPage,
    isFetching,
    pageCount: query.data?.pages.length ?? 0,
    fetchNextPage: () => fetchNextPage({ cancelRefetch: false }),
  });
  useListErrorNotice(query.error);

  const items = loadedClasses(query);
  if (query.isPending) return <ClassGridSkeleton label={CATALOGUE_TEXTS.loading} />;
  if (query.isError && items.length === 0) {
    return <LoadFailed message={CATALOGUE_TEXTS.listFailed} onRetry={() => void query.refetch()} />;
  }
  if (items.length === 0 && !hasNextPage) {
    const message =
      highlight === undefined
        ? (empty?.message ?? CATALOGUE_TEXTS.empty)
        : CATALOGUE_TEXTS.searchEmpty(highlight);
    return <EmptyState message={message}>{empty?.action}</EmptyState>;
  }
  return (
    <>
      <ClassGrid label={label}>
        {items.map((item, index) => (
          <li key={item.id}>
            {/* Feeds sit right under the page's h1, so their card titles are h2. */}
            <ClassCard
              item={item}
              headingLevel={2}
              priority={index < PRIORITY_CARDS}
              eager={index < EAGER_CARDS}
              {...(highlight === undefined ? {} : { highlight })}
              {...cardProps?.(item)}
            />
          </li>
        ))}
      </ClassGrid>
      {query.isFetchingNextPage && <Spinner label={CATALOGUE_TEXTS.loadingMore} />}
    </>
  );
}
