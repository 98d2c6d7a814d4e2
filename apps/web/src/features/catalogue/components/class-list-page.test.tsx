import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { envelope, listEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classItem, classItems } from '../test-classes.ts';
import { ClassListPage } from './class-list-page.tsx';

let pageHeight = 10_000;

beforeEach(() => {
  pageHeight = 10_000;
  Object.defineProperty(document.documentElement, 'scrollHeight', {
    configurable: true,
    get: () => pageHeight,
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(document.documentElement, 'scrollHeight');
});

/** 30 classes: pages of 12, 12 and 6, then an empty page. */
const ALL = classItems(30);

function mockClasses() {
  return mockFetch([
    {
      url: '/api/categories',
      respond: () => ({
        body: [
          { id: 1, name: '디지털 드로잉' },
          { id: 2, name: '드로잉' },
        ],
      }),
    },
    {
      url: /^\/api\/classes\?/,
      respond: (request) => {
        const query = new URL(request.url).searchParams;
        const page = Number(query.get('page'));
        const items = query.get('category') === '2' ? [] : ALL.slice(page * 12, page * 12 + 12);
        return { body: envelope(items) };
      },
    },
  ]);
}

function requestedPages(calls: Request[]): string[] {
  return calls
    .map((call) => new URL(call.url))
    .filter((url) => url.pathname === '/api/classes')
    .map((url) => url.search);
}

function scrollToBottom() {
  pageHeight = 1_000;
  act(() => {
    window.dispatchEvent(new Event('scroll'));
  });
}

describe('ClassListPage', () => {
  it('loads 12 at a time when the bottom comes within 500 px, and stops at the first empty page', async () => {
    const { calls } = mockClasses();
    renderWithProviders(<ClassListPage live={false} />, { route: '/list', path: '/list' });
    const grid = await screen.findByRole('list', { name: '전체 강의' });
    await waitFor(() => expect(within(grid).getAllByRole('listitem')).toHaveLength(12));
    // Far from the bottom: nothing more is asked for.
    act(() => {
      window.dispatchEvent(new Event('scroll'));
    });
    expect(requestedPages(calls)).toEqual(['?page=0']);

    scrollToBottom();
    await waitFor(() => expect(within(grid).getAllByRole('listitem')).toHaveLength(24));
    // Still near the bottom after a short page: the rest loads without another scroll.
    await waitFor(() => expect(requestedPages(calls).length).toBeGreaterThanOrEqual(3), {
      timeout: 3000,
    }).catch(() => {
      throw new Error(`pages asked: ${requestedPages(calls).join(' ')}`);
    });
    await waitFor(() => expect(within(grid).getAllByRole('listitem')).toHaveLength(30));
    await waitFor(() => expect(requestedPages(calls)).toEqual(['?page=0', '?page=1', '?page=2', '?page=3']));

    scrollToBottom();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestedPages(calls)).toHaveLength(4);
    expect(screen.queryByText('강의를 더 불러오는 중이에요...')).not.toBeInTheDocument();
  });

  it('shows the empty state when a category has no classes, via the dropdown on narrow screens', async () => {
    const { calls } = mockClasses();
    const { router } = renderWithProviders(<ClassListPage live={false} />, { route: '/list', path: '/list' });
    await screen.findByRole('list', { name: '전체 강의' });
    await userEvent.click(screen.getByRole('button', { name: '카테고리: 전체' }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: '드로잉' }));
    expect(await screen.findByText('아직 강의가 없어요')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?category=2');
    expect(requestedPages(calls)).toContain('?page=0&category=2');
  });

  it('asks only for live classes on the live list, titled with the red dot', async () => {
    const { calls } = mockClasses();
    renderWithProviders(<ClassListPage live />, { route: '/live-list', path: '/live-list' });
    expect(
      await screen.findByRole('heading', { level: 1, name: '라이브: 모두가 함께 보고 있는 실시간 강의' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(requestedPages(calls)[0]).toBe('?page=0&target=live'));
  });

  it('shows skeleton cards of the grid while the first page loads, then the cards in their place', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    mockFetch([
      { url: '/api/categories', respond: () => ({ body: [] }) },
      {
        url: /^\/api\/classes\?/,
        respond: async (request) => {
          await held;
          const page = Number(new URL(request.url).searchParams.get('page'));
          return { body: listEnvelope(page === 0 ? ALL.slice(0, 12) : [], 30) };
        },
      },
    ]);
    renderWithProviders(<ClassListPage live={false} />, { route: '/list', path: '/list' });
    const loading = await screen.findByRole('status');
    expect(loading).toHaveTextContent('강의를 불러오는 중이에요');
    const skeleton = document.querySelector('[data-skeleton="classes"]');
    expect(skeleton?.querySelectorAll('li')).toHaveLength(8);
    const skeletonGrid = skeleton?.querySelector('ul')?.className;
    const skeletonCard = skeleton?.querySelector('li > div')?.className ?? '';
    expect(screen.queryByText(/^강의 \d+$/)).not.toBeInTheDocument();
    release();
    const grid = await screen.findByRole('list', { name: '전체 강의' });
    expect(within(grid).getAllByRole('listitem')).toHaveLength(12);
    expect(document.querySelector('[data-skeleton]')).toBeNull();
    // The placeholders had the cards' own frame: the same grid and the same card box.
    expect(grid.className).toBe(skeletonGrid);
    expect(skeletonCard.split(' ')).toContain(grid.querySelector('article')?.className);
  });

  describe('LIVE cards', () => {
    const LIVE = [
      classItem(3, { is_active: true, live_viewer_count: 12, live_started_at: '2026-12-02T05:05:00Z' }),
      classItem(2, { is_active: true }),
      classItem(1, { is_active: true }),
    ];
    function mockLive() {
      return mockFetch([
        { url: '/api/categories', respond: () => ({ body: [] }) },
        {
          url: /^\/api\/classes\?/,
          respond: (request) => ({
            body: listEnvelope(new URL(request.url).searchParams.get('page') === '0' ? LIVE : [], 3),
          }),
        },
        {
          url: '/api/users/live-classes',
          respond: () => ({
            body: envelope([
              { id: 3, role: '수강생' },
              { id: 2, role: '강사' },
            ]),
          }),
        },
      ]);
    }
    const cardLink = (name: string) => screen.getByRole('link', { name });

    it('lead a member straight into the room (student or teacher), others to the class page', async () => {
      setTokens({ accessToken: 'a', refreshToken: 'r' });
      mockLive();
      renderWithProviders(<ClassListPage live />, { route: '/live-list', path: '/live-list' });
      await screen.findByRole('list', { name: '라이브: 모두가 함께 보고 있는 실시간 강의' });
      await waitFor(() => expect(cardLink('강의 3')).toHaveAttribute('href', '/live/student/3'));
      expect(cardLink('강의 2')).toHaveAttribute('href', '/live/teacher/2');
      expect(cardLink('강의 1')).toHaveAttribute('href', '/lecture/info/1');
      expect(screen.getAllByRole('article')[0]).toHaveTextContent(/시청 중 12명 · \d\d:\d\d 시작/);
    });

    it('for a visitor: every card to its class page, and no question about my classes', async () => {
      const { calls } = mockLive();
      renderWithProviders(<ClassListPage live />, { route: '/live-list', path: '/live-list' });
      await screen.findByRole('list', { name: '라이브: 모두가 함께 보고 있는 실시간 강의' });
      expect(cardLink('강의 3')).toHaveAttribute('href', '/lecture/info/3');
      expect(calls.some((call) => call.url.includes('/api/users/'))).toBe(false);
    });
  });

  it('on wide screens shows category buttons and the top-10 title', async () => {
    vi.stubGlobal(
      'matchMedia',
      (query: string) =>
        ({
          matches: query.includes('min-width: 1185px'),
          media: query,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
        }) as unknown as MediaQueryList,
    );
    const { calls } = mockClasses();
    renderWithProviders(<ClassListPage live={false} />, { route: '/list', path: '/list' });
    expect(await screen.findByRole('heading', { name: '수강생 수 TOP 10 강의' })).toBeInTheDocument();
    const filter = await screen.findByRole('group', { name: '카테고리로 강의 찾기' });
    expect(within(filter).getByRole('button', { name: '전체' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(filter).getByRole('button', { name: '디지털 드로잉' }));
    expect(within(filter).getByRole('button', { name: '디지털 드로잉' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await waitFor(() => expect(requestedPages(calls)).toContain('?page=0&category=1'));
    expect(requestedPages(calls)).toContain('?page=0&target=topten');
  });

  it('loads the first screenful of banners at once, the first row first, and the rest when near', async () => {
    mockClasses();
    renderWithProviders(<ClassListPage live={false} />, { route: '/list', path: '/list' });
    const grid = await screen.findByRole('list', { name: '전체 강의' });
    await waitFor(() => expect(within(grid).getAllByRole('listitem')).toHaveLength(12));
    const banners = within(grid)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('img'));
    expect(banners.map((img) => img?.getAttribute('loading'))).toEqual([
      ...Array<string>(8).fill('eager'),
      ...Array<string>(4).fill('lazy'),
    ]);
    expect(banners.map((img) => img?.getAttribute('fetchpriority'))).toEqual([
      'high',
      'high',
      ...Array<string>(10).fill('auto'),
    ]);
  });
});
