import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BANNERS } from '../../../lib/default-images.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classItem, classItems } from '../test-classes.ts';
import { formatRank } from './class-card.tsx';
import { TopTenCarousel } from './top-ten-carousel.tsx';

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
    const link = screen.getByRole('link', { name: /강의 23/ });
    expect(link).toHaveAttribute('href', '/lecture/info/23');
    expect(link.querySelector('img')).toHaveAttribute('src', DEFAULT_BANNERS[3]);
  });

  it('lets the browser choose between the card copy of an uploaded banner and the banner itself', () => {
    const banner = '/uploads/banners/0b6f5a4e-2c1d-4e8f-9a7b-3c2d1e0f9a8b.png';
    renderWithProviders(
      <TopTenCarousel items={[classItem(5, { banner_image_path: banner }), classItem(6)]} />,
    );
    const uploaded = screen.getByRole('link', { name: /강의 5/ }).querySelector('img');
    expect(uploaded).toHaveAttribute('src', banner);
    expect(uploaded).toHaveAttribute(
      'srcset',
      `${banner.replace('.png', '.card.png')} 480w, ${banner} 1184w`,
    );
    expect(uploaded).toHaveAttribute('sizes', '(min-width: 1185px) 296px, 50vw');
    // A bundled default banner has one size only.
    expect(screen.getByRole('link', { name: /강의 6/ }).querySelector('img')).not.toHaveAttribute('srcset');
  });
});
