import type { CSSProperties } from 'react';
import { TOP_TEN_CAROUSEL } from '../carousel-settings.ts';
import { SkeletonCard } from './class-grid-skeleton.tsx';
import carousel from './top-ten-carousel.module.css';

/**
 * What the TOP 10 row shows while it loads: grey cards laid out as the carousel's visible slides, so the
 * row has its final height and the list below it does not jump when the cards arrive.
 */
export function TopTenSkeleton({ label }: { label: string }) {
  const style = { '--slides-visible': TOP_TEN_CAROUSEL.slidesVisible } as CSSProperties;
  return (
    <div role="status" className={carousel.carousel} data-skeleton="top-ten">
      <span className="visually-hidden">{label}</span>
      <div aria-hidden="true" className={carousel.viewport} style={style}>
        <div className={carousel.container}>
          {Array.from({ length: TOP_TEN_CAROUSEL.slidesVisible }, (_, index) => (
            <div key={index} className={carousel.slide}>
              <SkeletonCard />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
