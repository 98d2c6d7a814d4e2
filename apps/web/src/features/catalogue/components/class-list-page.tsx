import { Page } from '../../../components/ui/page.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useDesktop } from '../../../lib/use-media-query.ts';
import { useCategories } from '../../../lib/use-categories.ts';
import { useClassPages } from '../api/use-class-pages.ts';
import { useTopTen } from '../api/use-home-classes.ts';
import { useLiveCardHref } from '../api/use-live-card-href.ts';
import { CATALOGUE_TEXTS } from '../texts.ts';
import { useCategoryParam } from '../use-category-param.ts';
import { CategoryFilter } from './category-filter.tsx';
import { ClassFeed } from './class-feed.tsx';
import { SectionHeader } from './section-header.tsx';
import { TopTenCarousel } from './top-ten-carousel.tsx';
import styles from './class-list-page.module.css';

/** The wide-screen top-10 row of `/list`, titled as the spec asks. */
function ListTopTen() {
  const topTen = useTopTen();
  if (topTen.isPending) return <Spinner label={CATALOGUE_TEXTS.loading} />;
  if (!topTen.data || topTen.data.length === 0) return null;
  return (
    <section aria-labelledby="list-top-ten">
      <SectionHeader id="list-top-ten" title={CATALOGUE_TEXTS.listTopTenTitle} />
      <TopTenCarousel items={topTen.data} />
    </section>
  );
}

/**
 * `/list` (every class) and `/live-list` (live classes only, titled with a red dot): category filter and an
 * infinitely scrolling grid.
 */
export function ClassListPage({ live }: { live: boolean }) {
  const desktop = useDesktop();
  const [category, setCategory] = useCategoryParam();
  const categories = useCategories();
  const query = useClassPages(live ? 'live' : null, category);
  const title = live ? CATALOGUE_TEXTS.liveListTitle : CATALOGUE_TEXTS.listTitle;
  const liveHref = useLiveCardHref();

  return (
    <Page className={styles.page}>
      {!live && desktop && <ListTopTen />}
      <section aria-labelledby="class-list-title" className={styles.list}>
        <SectionHeader id="class-list-title" title={title} live={live} level={1} />
        {categories.data && (
          <CategoryFilter categories={categories.data} value={category} onChange={setCategory} />
        )}
        <ClassFeed
          query={query}
          label={title}
          cardProps={(item) => {
            const href = liveHref(item);
            return href === undefined ? {} : { href };
          }}
        />
      </section>
    </Page>
  );
}
