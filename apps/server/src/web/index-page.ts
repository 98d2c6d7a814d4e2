import { INITIAL_ANSWERS_ID } from '@sea/contract/initial-answers';
import type { InitialAnswers } from '@sea/contract/initial-answers';
import { BANNER_CARD_SIZES, bannerCardSrcSet } from '@sea/contract/uploads';
import { cataloguePage } from './catalogue-pages.ts';
import type { CataloguePage } from './catalogue-pages.ts';
import { routeFiles } from './page-manifest.ts';
import type { readManifest } from './page-manifest.ts';

const ROOT_ELEMENT = '<div id="root"></div>';

/** Answers one GET request of the API: its JSON body when it answered 200, otherwise null. */
export type FetchAnswer = (requestKey: string) => Promise<unknown>;

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  '<': '&lt;',
  '>': '&gt;',
  "'": '&#39;',
};

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>']/g, (char) => ATTRIBUTE_ESCAPES[char] ?? char);
}

/**
 * JSON that is safe inside a `<script type="application/json">` element: no `<` (so no `</script>` or
 * `<!--` can end or bend the element), no `>` or `&`, and no U+2028/U+2029. JSON.parse reads it unchanged.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The banners of a list answer's first cards (an envelope whose data is a class list). */
function firstBanners(answer: unknown, count: number): string[] {
  if (typeof answer !== 'object' || answer === null || !('data' in answer)) return [];
  const { data } = answer;
  if (!Array.isArray(data)) return [];
  return (
    data
      .slice(0, count)
      .map((item: unknown) =>
        typeof item === 'object' && item !== null && 'banner_image_path' in item
          ? item.banner_image_path
          : null,
      )
      // Paths of this site only (`//host/...` would be another site).
      .filter((path): path is string => typeof path === 'string' && /^\/(?!\/)/.test(path))
  );
}

/**
 * The web app's index.html, per page. Every page gets the built file as it is, except the catalogue pages
 * (`/`, `/list`, `/live-list`), whose HTML also names the route's own chunks and stylesheets (so they load
 * with the entry, not after it), embeds the answers of the page's first requests (fresh for this request),
 * and preloads the banners of the first cards, the page's largest paint.
 */
export function createIndexPage(
  html: string,
  manifest: ReturnType<typeof readManifest>,
  fetchAnswer: FetchAnswer,
): (url: string) => Promise<string> {
  const headEnd = html.indexOf('</head>');
  const root = html.indexOf(ROOT_ELEMENT);
  // A page without these marks (not Vite's build) is served as it is: the app then asks for everything.
  if (headEnd < 0 || root < headEnd) return async () => html;
  const rootEnd = root + ROOT_ELEMENT.length;

  return async (url: string) => {
    const parsed = new URL(url, 'http://localhost');
    const page: CataloguePage | null = cataloguePage(parsed.pathname, parsed.searchParams);
    if (page === null) return html;

    const answers: InitialAnswers['answers'] = {};
    const fetched = await Promise.all(
      page.requests.map(async (key) => [key, await fetchAnswer(key)] as const),
    );
    for (const [key, answer] of fetched) if (answer !== null) answers[key] = answer;

    const files = routeFiles(manifest, page.routeModule);
    const banners = [
      ...new Set(page.firstCards.flatMap(({ request, count }) => firstBanners(answers[request], count))),
    ];
    const head = [
      ...files.styles.map((href) => `<link rel="stylesheet" crossorigin href="${escapeAttribute(href)}">`),
      ...files.scripts.map(
        (href) => `<link rel="modulepreload" crossorigin href="${escapeAttribute(href)}">`,
      ),
      ...banners.map((href) => {
        // The same choice the card's <img> makes, so the preloaded file is the one it shows.
        const srcset = bannerCardSrcSet(href);
        const choice =
          srcset === null
            ? ''
            : ` imagesrcset="${escapeAttribute(srcset)}" imagesizes="${escapeAttribute(BANNER_CARD_SIZES)}"`;
        return `<link rel="preload" as="image" fetchpriority="high" href="${escapeAttribute(href)}"${choice}>`;
      }),
    ].join('\n    ');
    const body = `<script type="application/json" id="${INITIAL_ANSWERS_ID}">${scriptSafeJson({ answers })}</script>`;
    return (
      html.slice(0, headEnd) +
      (head === '' ? '' : `  ${head}\n  `) +
      html.slice(headEnd, rootEnd) +
      `\n    ${body}` +
      html.slice(rootEnd)
    );
  };
}
