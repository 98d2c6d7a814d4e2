import { describe, expect, it } from 'vitest';
import {
  emblaDurationFor,
  simulateEmblaSlide,
  TOP_TEN_AUTOPLAY_OPTIONS,
  TOP_TEN_CAROUSEL,
  TOP_TEN_EMBLA_OPTIONS,
} from './carousel-settings.ts';

const FRAME_MS = 1000 / 60;

describe('top-ten carousel settings', () => {
  // The numbers of product-spec section 9; top-ten-carousel.test.tsx proves the carousel is built with them.
  it('holds the spec numbers: 3 slides, a step of 1, 500 ms, autoplay every 5 s, loop', () => {
    expect(TOP_TEN_CAROUSEL).toEqual({
      slidesVisible: 3,
      slidesToScroll: 1,
      slideSpeedMs: 500,
      autoplayDelayMs: 5000,
      loop: true,
    });
    expect(TOP_TEN_EMBLA_OPTIONS).toMatchObject({ loop: true, slidesToScroll: 1 });
    expect(TOP_TEN_AUTOPLAY_OPTIONS.delay).toBe(5000);
    expect(TOP_TEN_AUTOPLAY_OPTIONS.stopOnInteraction).toBe(false);
  });

  it('converts the 500 ms slide into an Embla duration that settles in about 500 ms without bouncing', () => {
    const duration = TOP_TEN_EMBLA_OPTIONS.duration;
    expect(duration).toBe(emblaDurationFor(500));
    const { settleMs, overshoot } = simulateEmblaSlide(duration ?? 0);
    expect(Math.abs(settleMs - 500)).toBeLessThanOrEqual(2 * FRAME_MS);
    expect(overshoot).toBeLessThan(0.001);
  });

  it('slides slower for a longer wanted time', () => {
    const fast = simulateEmblaSlide(emblaDurationFor(300)).settleMs;
    const slow = simulateEmblaSlide(emblaDurationFor(1000)).settleMs;
    expect(fast).toBeLessThan(slow);
    expect(Math.abs(slow - 1000)).toBeLessThanOrEqual(2 * FRAME_MS);
  });
});
