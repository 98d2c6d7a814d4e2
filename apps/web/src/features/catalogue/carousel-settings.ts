import type useEmblaCarousel from 'embla-carousel-react';

type EmblaOptions = NonNullable<Parameters<typeof useEmblaCarousel>[0]>;

/** The home page's top-10 carousel (product-spec sections 2 and 9). */
export const TOP_TEN_CAROUSEL = {
  slidesVisible: 3,
  slidesToScroll: 1,
  slideSpeedMs: 500,
  autoplayDelayMs: 5000,
  loop: true,
} as const;

// Embla animates with a damped spring stepped 60 times a second: each step adds displacement / duration to
// the velocity and multiplies it by the friction (0.68). Its `duration` option is therefore not in
// milliseconds; this simulates the spring to find the duration whose slide settles in the wanted time.
const EMBLA_FRICTION = 0.68;
const FRAME_MS = 1000 / 60;
const SETTLED = 0.005;
const MAX_OVERSHOOT = 0.001;
const MAX_FRAMES = 600;

/** Simulated time in ms for a slide to settle with Embla's `duration`, and how far it overshoots. */
export function simulateEmblaSlide(duration: number): { settleMs: number; overshoot: number } {
  let location = 0;
  let velocity = 0;
  let overshoot = 0;
  let settledAt = MAX_FRAMES;
  for (let frame = 1; frame <= MAX_FRAMES; frame += 1) {
    velocity += (1 - location) / duration;
    velocity *= EMBLA_FRICTION;
    location += velocity;
    overshoot = Math.max(overshoot, location - 1);
    if (settledAt === MAX_FRAMES && Math.abs(1 - location) < SETTLED && Math.abs(velocity) < SETTLED) {
      settledAt = frame;
    }
  }
  return { settleMs: settledAt * FRAME_MS, overshoot };
}

/** Embla's `duration` whose slide settles closest to `ms` without a visible bounce. */
export function emblaDurationFor(ms: number): number {
  let best = 1;
  let bestError = Number.POSITIVE_INFINITY;
  for (let duration = 1; duration <= 200; duration += 1) {
    const { settleMs, overshoot } = simulateEmblaSlide(duration);
    if (overshoot > MAX_OVERSHOOT) continue;
    const error = Math.abs(settleMs - ms);
    if (error < bestError) {
      best = duration;
      bestError = error;
    }
  }
  return best;
}

export const TOP_TEN_EMBLA_OPTIONS: EmblaOptions = {
  loop: TOP_TEN_CAROUSEL.loop,
  slidesToScroll: TOP_TEN_CAROUSEL.slidesToScroll,
  align: 'start',
  duration: emblaDurationFor(TOP_TEN_CAROUSEL.slideSpeedMs),
};

export const TOP_TEN_AUTOPLAY_OPTIONS = {
  delay: TOP_TEN_CAROUSEL.autoplayDelayMs,
  // Keep going after a click on an arrow; pause while the pointer or keyboard focus is on a card.
  stopOnInteraction: false,
  stopOnMouseEnter: true,
  stopOnFocusIn: true,
} as const;
