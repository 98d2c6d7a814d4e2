import { answerKey } from '@sea/contract/initial-answers';
import { pageModule } from '@sea/contract/page-modules';
import { PAGES, ROUTES } from '@sea/contract/paths';
import { CLASS_SORTS, type ClassSort } from '@sea/contract/search';

/** A GET request of the API (its key, see `answerKey`). */
type RequestKey = string;

/**
 * A catalogue page whose HTML carries its first answers: the route module the web app loads lazily for it (its
 * source path as the build's manifest names it, from the contract's `pageModule`, which the web app loads its
 * pages by too), the GET requests it makes first (exactly as the web app builds them), and the lists whose
 * first cards' banners are the page's largest paint.
 */
export type CataloguePage = {
  routeModule: string;
  requests: RequestKey[];
  /** Lists (request keys) and how many of their first cards show in the first screenful. */
  firstCards: { request: RequestKey; count: number }[];
};

/** `?category=3` as the web app reads it: a positive integer, otherwise none. */
function categoryOf(search: URLSearchParams): number | null {
  const raw = Number(search.get('category'));
  return Number.isInteger(raw) && raw > 0 ? raw : null;
}

/**
 * The list's search query and sort in the address (`?q=드로잉&sort=rating`) as the web app reads them
 * (`use-list-search.ts`): a trimmed, non-empty `q`; a known `sort`. A search results page whose HTML named the
 * unfiltered list's first banners had Chromium warn that they were preloaded and not used.
 */
function listSearchOf(search: URLSearchParams): { q: string | null; sort: ClassSort | null } {
  const q = search.get('q')?.trim() ?? '';
  const sort = CLASS_SORTS.find((known) => known === search.get('sort')) ?? null;
  return { q: q === '' ? null : q, sort };
}

/** The catalogue page at `pathname`, or null for every other page (served without embedded answers). */
export function cataloguePage(pathname: string, search: URLSearchParams): CataloguePage | null {
  if (pathname === PAGES.home) {
    const topTen = answerKey(ROUTES.classes, { page: 0, target: 'topten' });
    const live = answerKey(ROUTES.classes, { page: 0, target: 'live' });
    return {
      routeModule: pageModule('home'),
      requests: [topTen, live],
      // The live grid's first card is the largest on the mobile column, the carousel's first on desktop.
      firstCards: [
        { request: live, count: 1 },
        { request: topTen, count: 1 },
      ],
    };
  }
  if (pathname === PAGES.list || pathname === PAGES.liveList) {
    const target = pathname === PAGES.liveList ? 'live' : null;
    const classes = answerKey(ROUTES.classes, {
      page: 0,
      category: categoryOf(search),
      target,
      ...listSearchOf(search),
    });
    return {
      routeModule: pageModule(pathname === PAGES.list ? 'list' : 'liveList'),
      requests: [classes, answerKey(ROUTES.categories)],
      // The first row of the grid (two cards on the mobile column).
      firstCards: [{ request: classes, count: 2 }],
    };
  }
  return null;
}
