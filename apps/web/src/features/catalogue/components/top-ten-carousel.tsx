import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel from 'embla-carousel-react';
import { useState } from 'react';
import type { CSSProperties } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/ui/icons.tsx';
import { TOP_TEN_AUTOPLAY_OPTIONS, TOP_TEN_CAROUSEL, TOP_TEN_EMBLA_OPTIONS } from '../carousel-settings.ts';
import { CATALOGUE_TEXTS } from '../texts.ts';
import { ClassCard } from './class-card.tsx';
import type { ClassSummary } from './class-card.tsx';
import styles from './top-ten-carousel.module.css';

/** A card's `href` prop when there is one (the card's own default otherwise). */
function hrefProp(href: string | undefined): { href?: string } {
  return href === undefined ? {} : { href };
}

/**
 * The top-10 carousel: 3 cards visible, one step per move, a 500 ms slide, autoplay every 5 s, looping,
 * with arrows and ranks 01..10.
 */
export function TopTenCarousel({
  items,
  cardHref,
}: {
  items: readonly ClassSummary[];
  /** Where a card leads instead of its class introduction (a LIVE class the user may enter: its room). */
  cardHref?: (item: ClassSummary) => string | undefined;
}) {
  const [plugins] = useState(() => [Autoplay(TOP_TEN_AUTOPLAY_OPTIONS)]);
  const [viewportRef, embla] = useEmblaCarousel(TOP_TEN_EMBLA_OPTIONS, plugins);
  const style = { '--slides-visible': TOP_TEN_CAROUSEL.slidesVisible } as CSSProperties;

  return (
    <div
      className={styles.carousel}
      role="region"
      aria-roledescription="carousel"
      aria-label={CATALOGUE_TEXTS.carouselLabel}
    >
      <div
        className={styles.viewport}
        ref={viewportRef}
        style={style}
        data-slides-visible={TOP_TEN_CAROUSEL.slidesVisible}
      >
        <div className={styles.container}>
          {items.map((item, index) => (
            <div
              key={item.id}
              className={styles.slide}
              role="group"
              aria-roledescription="slide"
              aria-label={CATALOGUE_TEXTS.slideLabel(index + 1, items.length)}
            >
              <ClassCard
                item={item}
                rank={index + 1}
                priority={index < TOP_TEN_CAROUSEL.slidesVisible}
                {...hrefProp(cardHref?.(item))}
              />
            </div>
          ))}
        </div>
      </div>
      {/* Beside the cards on wide screens, in a row under them on narrow ones (clear of banners and LIVE). */}
      <div className={styles.arrows}>
        <button
          type="button"
          className={`${styles.arrow} ${styles.prev}`}
          onClick={() => embla?.scrollPrev()}
          aria-label={CATALOGUE_TEXTS.carouselPrev}
        >
          <ChevronLeftIcon />
        </button>
        <button
          type="button"
          className={`${styles.arrow} ${styles.next}`}
          onClick={() => embla?.scrollNext()}
          aria-label={CATALOGUE_TEXTS.carouselNext}
        >
          <ChevronRightIcon />
        </button>
      </div>
    </div>
  );
}
