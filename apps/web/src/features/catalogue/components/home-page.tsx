import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useLivePreview, useTopTen } from '../api/use-home-classes.ts';
import { useLiveCardHref } from '../api/use-live-card-href.ts';
import { CATALOGUE_TEXTS } from '../texts.ts';
import { useListErrorNotice } from '../use-list-error-notice.ts';
import { AdBanner } from './ad-banner.tsx';
import { ClassCard } from './class-card.tsx';
import { ClassGrid } from './class-grid.tsx';
import { ClassGridSkeleton } from './class-grid-skeleton.tsx';
import { SectionHeader } from './section-header.tsx';
import { TopTenCarousel } from './top-ten-carousel.tsx';
import styles from './home-page.module.css';

/** Live cards in the grid's first row (two columns on the mobile layout). */
const LIVE_PRIORITY_CARDS = 2;

/** A card's `href` prop when there is one (the card's own default otherwise). */
function withHref(href: string | undefined): { href?: string } {
  return href === undefined ? {} : { href };
}

/** `/`: advertisement, the top-10 carousel and the grid of live classes. */
export function HomePage() {
  const topTen = useTopTen();
  const live = useLivePreview();
  const liveHref = useLiveCardHref();
  useListErrorNotice(topTen.error ?? live.error);

  return (
    <Page className={styles.home}>
      <AdBanner />
      <section aria-labelledby="home-top-ten" className={styles.section}>
        <SectionHeader
          id="home-top-ten"
          title={CATALOGUE_TEXTS.topTenTitle}
          link={{ to: '/list', label: CATALOGUE_TEXTS.seeAllClasses }}
        />
        {topTen.isPending ? (
          <Spinner label={CATALOGUE_TEXTS.loading} />
        ) : topTen.data && topTen.data.length > 0 ? (
          <TopTenCarousel items={topTen.data} cardHref={liveHref} />
        ) : topTen.isError ? (
          <LoadFailed message={CATALOGUE_TEXTS.listFailed} onRetry={() => void topTen.refetch()} />
        ) : (
          <EmptyState message={CATALOGUE_TEXTS.empty} />
        )}
      </section>
      <section aria-labelledby="home-live" className={styles.section}>
        <SectionHeader
          id="home-live"
          live
          title={CATALOGUE_TEXTS.liveTitle}
          link={{ to: '/live-list', label: CATALOGUE_TEXTS.seeLiveClasses }}
        />
        {live.isPending ? (
          <ClassGridSkeleton label={CATALOGUE_TEXTS.loading} count={LIVE_PRIORITY_CARDS * 2} />
        ) : live.data && live.data.length > 0 ? (
          <ClassGrid>
            {live.data.map((item, index) => (
              <li key={item.id}>
                {/* The first row shows without scrolling; its first banner is the page's largest paint. */}
                <ClassCard item={item} priority={index < LIVE_PRIORITY_CARDS} {...withHref(liveHref(item))} />
              </li>
            ))}
          </ClassGrid>
        ) : live.isError ? (
          <LoadFailed message={CATALOGUE_TEXTS.listFailed} onRetry={() => void live.refetch()} />
        ) : (
          <EmptyState message={CATALOGUE_TEXTS.empty} />
        )}
      </section>
    </Page>
  );
}
