import { useLocation } from 'react-router';
import { wantsSearchFocus } from '../../../components/ui/header-search.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { useDesktop } from '../../../lib/use-media-query.ts';
import { useCategories } from '../../../lib/use-categories.ts';
import { useClassPages } from '../api/use-class-pages.ts';
import { useTopTen } from '../api/use-home-classes.ts';
import { useLiveCardHref } from '../api/use-live-card-href.ts';
import { CATALOGUE_TEXTS } from '../texts.ts';
import { useCategoryParam } from '../use-category-param.ts';
import { useListSearch } from '../use-list-search.ts';
import { CategoryFilter } from './category-filter.tsx';
import { ClassFeed } from './class-feed.tsx';
import { SearchBox } from './search-box.tsx';
import { SectionHeader } from './section-header.tsx';
import { SortSelect } from './sort-select.tsx';
import { TopTenCarousel } from './top-ten-carousel.tsx';
import { TopTenSkeleton } from './top-ten-skeleton.tsx';
import styles from './class-list-page.module.css';

/**
 * The wide-screen top-10 row of `/list`, titled as the spec asks; grey cards of its height while it loads. Also
 * what a search that found nothing offers instead, titled as an offer.
 */
function ListTopTen({ title = CATALOGUE_TEXTS.listTopTenTitle }: { title?: string }) {
  const topTen = useTopTen();
  if (!topTen.isPending && (!topTen.data || topTen.data.length === 0)) return null;
  return (
    <section aria-labelledby="list-top-ten">
      <SectionHeader id="list-top-ten" title={title} />
      {topTen.data ? (
        <TopTenCarousel items={topTen.data} />
      ) : (
        <TopTenSkeleton label={CATALOGUE_TEXTS.loading} />
      )}
    </section>
  );
}

/**
 * `/list` (every class) and `/live-list` (live classes only, titled with a red dot): a search box, the sort,
 * category filter and an infinitely scrolling grid. `/list?q=` is the search results page, its matches marked.
 */
export function ClassListPage({ live }: { live: boolean }) {
  const desktop = useDesktop();
  const [category, setCategory] = useCategoryParam();
  const { q, sort, setQuery, setSort } = useListSearch();
  const categories = useCategories();
  const query = useClassPages(live ? 'live' : null, category, {
    ...(q === undefined ? {} : { q }),
    ...(sort === undefined ? {} : { sort }),
  });
  const listTitle = live ? CATALOGUE_TEXTS.liveListTitle : CATALOGUE_TEXTS.listTitle;
  const title = q === undefined ? listTitle : CATALOGUE_TEXTS.searchTitle(q);
  const liveHref = useLiveCardHref();
  const { state } = useLocation();

  return (
    <Page className={styles.page}>
      {!live && desktop && q === undefined && <ListTopTen />}
      <section aria-labelledby="class-list-title" className={styles.list}>
        <SectionHeader id="class-list-title" title={title} live={live} level={1} />
        <SearchBox value={q ?? ''} onSearch={setQuery} focus={wantsSearchFocus(state)} />
        <div className={styles.filters}>
          {categories.data && (
            <CategoryFilter categories={categories.data} value={category} onChange={setCategory} />
          )}
          <SortSelect value={sort} onChange={setSort} searching={q !== undefined} />
        </div>
        <ClassFeed
          query={query}
          label={title}
          highlight={q}
          cardProps={(item) => {
            const href = liveHref(item);
            return href === undefined ? {} : { href };
          }}
        />
      </section>
      {q !== undefined && query.data?.pages[0]?.items.length === 0 && (
        <ListTopTen title={CATALOGUE_TEXTS.searchPopular} />
      )}
    </Page>
  );
}
