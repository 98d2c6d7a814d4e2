import { act, fireEvent, screen, within } from '@testing-library/react';
import type { EmblaCarouselType } from 'embla-carousel';
import useEmblaCarousel from 'embla-carousel-react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_BANNERS } from '../../../lib/default-images.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { emblaDurationFor } from '../carousel-settings.ts';
import { classItem, classItems } from '../test-classes.ts';
import { formatRank } from './class-card.tsx';
import { TopTenCarousel } from './top-ten-carousel.tsx';

// The real hook, recorded: the tests read the arguments the component passes and the Embla instance it gets.
vi.mock('embla-carousel-react', async (importOriginal) => {
  const actual = await importOriginal<{ default: typeof useEmblaCarousel }>();
  return { default: vi.fn(actual.default) };
});

const VIEWPORT_PX = 900;
const SLIDE_PX = 300;

/** jsdom has no layout: give the carousel a 900 px track of 300 px slides, as a browser would measure it. */
function layOutCarousel(): void {
  const sizeOf = (node: HTMLElement): number => {
    if (node.hasAttribute('data-slides-visible')) return VIEWPORT_PX;
    if (node.parentElement?.hasAttribute('data-slides-visible')) return VIEWPORT_PX;
    if (node.getAttribute('aria-roledescription') === 'slide') return SLIDE_PX;
    return 0;
  };
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return sizeOf(this);
  });
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return sizeOf(this) > 0 ? 200 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'offsetLeft', 'get').mockImplementation(function (this: HTMLElement) {
    if (this.getAttribute('aria-roledescription') !== 'slide') return 0;
    return Array.from(this.parentElement?.children ?? []).indexOf(this) * SLIDE_PX;
  });
}

/** The Embla instance the component's last render received. */
function emblaInstance(): EmblaCarouselType {
  const results = vi.mocked(useEmblaCarousel).mock.results;
  const last = results.at(-1);
  if (last?.type !== 'return' || last.value[1] === undefined) throw new Error('Embla has not started');
  return last.value[1];
}

describe('TopTenCarousel', () => {
  it('shows ten slides ranked 01..10 in order, three visible, with arrows', () => {
    renderWithProviders(<TopTenCarousel items={classItems(10, 40)} />);
    const carousel = screen.getByRole('region', { name: 'TOP 10 강의 목록' });
    const slides = within(carousel).getAllByRole('group');
    expect(slides).toHaveLength(10);
    slides.forEach((slide, index) => {
      expect(slide).toHaveAccessibleName(`10개 중 ${index + 1}번째`);
      expect(slide).toHaveTextContent(formatRank(index + 1));
      expect(slide).toHaveTextContent(`${index + 1}위`);
    });
    expect(slides[0]).toHaveTextContent('01');
    expect(slides[9]).toHaveTextContent('10');
    expect(carousel.querySelector('[data-slides-visible]')).toHaveAttribute('data-slides-visible', '3');
    expect(within(carousel).getByRole('button', { name: '이전 강의 보기' })).toBeInTheDocument();
    expect(within(carousel).getByRole('button', { name: '다음 강의 보기' })).toBeInTheDocument();
  });

  it('links each card to its class introduction and uses the default banner by id % 10', () => {
    renderWithProviders(<TopTenCarousel items={[classItem(23)]} />);
    const link = screen.getByRole('link', { name: '강의 23' });
    expect(link).toHaveAttribute('href', '/lecture/info/23');
    expect(link.closest('article')?.querySelector('img')).toHaveAttribute('src', DEFAULT_BANNERS[3]);
  });

  it('lets the browser choose between the card copy of an uploaded banner and the banner itself', () => {
    const banner = '/uploads/banners/0b6f5a4e-2c1d-4e8f-9a7b-3c2d1e0f9a8b.png';
    renderWithProviders(
      <TopTenCarousel items={[classItem(5, { banner_image_path: banner }), classItem(6)]} />,
    );
    const cardBanner = (name: string) =>
      screen.getByRole('link', { name }).closest('article')?.querySelector('img');
    const uploaded = cardBanner('강의 5');
    expect(uploaded).toHaveAttribute('src', banner);
    expect(uploaded).toHaveAttribute(
      'srcset',
      `${banner.replace('.png', '.card.png')} 480w, ${banner} 1184w`,
    );
    expect(uploaded).toHaveAttribute('sizes', '(min-width: 1185px) 296px, 50vw');
    // A bundled default banner has one size only.
    expect(cardBanner('강의 6')).not.toHaveAttribute('srcset');
  });
});

describe('TopTenCarousel wiring', () => {
  beforeEach(() => {
    vi.mocked(useEmblaCarousel).mockClear();
    vi.useFakeTimers();
    layOutCarousel();
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('gives Embla a looping, one-step, 500 ms slide and the Autoplay plugin with a 5 s delay', () => {
    renderWithProviders(<TopTenCarousel items={classItems(10, 40)} />);
    const [options, plugins] = vi.mocked(useEmblaCarousel).mock.calls[0] ?? [];
    expect(options).toEqual({
      loop: true,
      slidesToScroll: 1,
      align: 'start',
      duration: emblaDurationFor(500),
    });
    expect(plugins).toHaveLength(1);
    expect(plugins?.[0]).toMatchObject({
      name: 'autoplay',
      options: { delay: 5000, stopOnInteraction: false },
    });

    const embla = emblaInstance();
    expect(embla.internalEngine().options).toMatchObject({ loop: true, slidesToScroll: 1 });
    expect(embla.slideNodes()).toHaveLength(10);
    // One snap per slide: a move is one card, not a page of three.
    expect(embla.scrollSnapList()).toHaveLength(10);
    expect(embla.plugins().autoplay?.isPlaying()).toBe(true);
  });

  it('advances one slide every 5 s and loops past the last', () => {
    renderWithProviders(<TopTenCarousel items={classItems(10, 40)} />);
    const embla = emblaInstance();
    expect(embla.selectedScrollSnap()).toBe(0);
    act(() => vi.advanceTimersByTime(4900));
    expect(embla.selectedScrollSnap()).toBe(0);
    act(() => vi.advanceTimersByTime(100));
    expect(embla.selectedScrollSnap()).toBe(1);
    act(() => vi.advanceTimersByTime(5000));
    expect(embla.selectedScrollSnap()).toBe(2);
    act(() => vi.advanceTimersByTime(7 * 5000));
    expect(embla.selectedScrollSnap()).toBe(9);
    act(() => vi.advanceTimersByTime(5000));
    expect(embla.selectedScrollSnap()).toBe(0);
  });

  it('moves one slide per arrow, backwards from the first to the last, and keeps playing', () => {
    renderWithProviders(<TopTenCarousel items={classItems(10, 40)} />);
    const embla = emblaInstance();
    fireEvent.click(screen.getByRole('button', { name: '다음 강의 보기' }));
    expect(embla.selectedScrollSnap()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: '이전 강의 보기' }));
    fireEvent.click(screen.getByRole('button', { name: '이전 강의 보기' }));
    expect(embla.selectedScrollSnap()).toBe(9);
    act(() => vi.advanceTimersByTime(5000));
    expect(embla.selectedScrollSnap()).toBe(0);
  });
});
