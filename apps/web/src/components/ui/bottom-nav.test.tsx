import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../testing/render.tsx';
import { BottomNav } from './bottom-nav.tsx';

describe('BottomNav', () => {
  it.each([
    ['/live-list', '라이브'],
    ['/list', '강의'],
    ['/', '홈'],
    ['/classroom', '내 학습'],
  ])('on %s highlights %s only', (route, current) => {
    renderWithProviders(<BottomNav />, { route });
    const nav = screen.getByRole('navigation', { name: '주요 메뉴' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['라이브', '강의', '홈', '내 학습']);
    for (const link of links) {
      if (link.textContent === current) expect(link).toHaveAttribute('aria-current', 'page');
      else expect(link).not.toHaveAttribute('aria-current');
    }
  });
});
