import { describe, expect, it } from 'vitest';
import { INITIAL_ANSWERS_ID } from '@sea/contract/initial-answers';
import { createIndexPage, scriptSafeJson } from './index-page.ts';
import type { FetchAnswer } from './index-page.ts';

const HTML =
  '<!doctype html><html lang="ko"><head><title>바다학원</title>' +
  '<script type="module" crossorigin src="/assets/index-1.js"></script></head>' +
  '<body><div id="root"></div></body></html>';

/** A manifest with an entry, a home route chunk that shares a chunk with the entry, and its stylesheet. */
const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_shared.js'] },
  '_shared.js': { file: 'assets/shared-2.js' },
  '_grid.js': { file: 'assets/grid-3.js', css: ['assets/grid-3.css'] },
  'src/app/routes/home.tsx': {
    file: 'assets/home-4.js',
    imports: ['_shared.js', '_grid.js'],
    css: ['assets/home-4.css'],
  },
};

const item = (id: number, banner: string | null) => ({ id, name: `강의 ${id}`, banner_image_path: banner });
const envelope = (data: unknown) => ({ status: 200, message_kor: '강의 목록이에요.', data });

/** Answers from a table; records what was asked. */
function fakeApi(answers: Record<string, unknown>): { fetch: FetchAnswer; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    fetch: async (key) => {
      asked.push(key);
      return answers[key] ?? null;
    },
  };
}

/** The embedded answers of a rendered page. */
function embedded(page: string): Record<string, unknown> {
  const match = new RegExp(`<script type="application/json" id="${INITIAL_ANSWERS_ID}">(.*?)</script>`).exec(
    page,
  );
  if (!match?.[1]) throw new Error('no embedded answers');
  return (JSON.parse(match[1]) as { answers: Record<string, unknown> }).answers;
}

describe('index page per URL', () => {
  it('embeds the home page answers, preloads its route files and its first banners', async () => {
    const live = envelope([item(9, '/uploads/banners/live.jpg'), item(8, '/uploads/banners/second.jpg')]);
    const topTen = envelope([item(3, '/uploads/banners/top.jpg')]);
    const api = fakeApi({
      '/api/classes?page=0&target=live': live,
      '/api/classes?page=0&target=topten': topTen,
    });
    const page = await createIndexPage(HTML, MANIFEST, api.fetch)('/');
    expect(api.asked.sort()).toEqual([
      '/api/classes?page=0&target=live',
      '/api/classes?page=0&target=topten',
    ]);
    expect(embedded(page)).toEqual({
      '/api/classes?page=0&target=live': live,
      '/api/classes?page=0&target=topten': topTen,
    });
    const head = page.slice(0, page.indexOf('</head>'));
    // The route's own chunks, not those the entry loads already.
    expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/home-4.js">');
    expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/grid-3.js">');
    expect(head).not.toContain('shared-2.js');
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/home-4.css">');
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/grid-3.css">');
    // Only the first card of each list is the largest paint.
    expect(head).toContain(
      '<link rel="preload" as="image" fetchpriority="high" href="/uploads/banners/live.jpg">',
    );
    expect(head).toContain('href="/uploads/banners/top.jpg"');
    expect(head).not.toContain('second.jpg');
    // The answers sit right after the root element, before the entry runs.
    expect(page.indexOf(INITIAL_ANSWERS_ID)).toBeGreaterThan(page.indexOf('<div id="root"></div>'));
  });

  it('preloads the card copy that the card of an uploaded banner will choose', async () => {
    const banner = '/uploads/banners/0b6f5a4e-2c1d-4e8f-9a7b-3c2d1e0f9a8b.jpg';
    const api = fakeApi({ '/api/classes?page=0&target=live': envelope([item(1, banner)]) });
    const page = await createIndexPage(HTML, MANIFEST, api.fetch)('/');
    expect(page).toContain(
      `<link rel="preload" as="image" fetchpriority="high" href="${banner}" ` +
        `imagesrcset="${banner.replace('.jpg', '.card.jpg')} 480w, ${banner} 1184w" ` +
        `imagesizes="(min-width: 1185px) 296px, 50vw">`,
    );
  });

  it('asks for the list of the category in the address, with the categories', async () => {
    const api = fakeApi({});
    await createIndexPage(HTML, MANIFEST, api.fetch)('/list?category=13');
    expect(api.asked.sort()).toEqual(['/api/categories', '/api/classes?category=13&page=0']);
    api.asked.length = 0;
    await createIndexPage(HTML, MANIFEST, api.fetch)('/live-list?category=abc');
    expect(api.asked.sort()).toEqual(['/api/categories', '/api/classes?page=0&target=live']);
  });

  it('asks for the search results and the sort in the address, so its banners are those the page shows', async () => {
    const found = envelope([item(4, '/uploads/banners/found.jpg'), item(5, '/uploads/banners/next.jpg')]);
    const api = fakeApi({
      '/api/classes?page=0': envelope([item(1, '/uploads/banners/first.jpg')]),
      '/api/classes?page=0&q=%EB%93%9C%EB%A1%9C%EC%9E%89&sort=rating': found,
    });
    const page = await createIndexPage(
      HTML,
      MANIFEST,
      api.fetch,
    )(`/list?q=${encodeURIComponent(' 드로잉 ')}&sort=rating`);
    expect(api.asked.sort()).toEqual([
      '/api/categories',
      '/api/classes?page=0&q=%EB%93%9C%EB%A1%9C%EC%9E%89&sort=rating',
    ]);
    expect(embedded(page)).toEqual({
      '/api/classes?page=0&q=%EB%93%9C%EB%A1%9C%EC%9E%89&sort=rating': found,
    });
    expect(page).toContain('href="/uploads/banners/found.jpg"');
    expect(page).toContain('href="/uploads/banners/next.jpg"');
    expect(page).not.toContain('first.jpg');
    // A blank query and an unknown sort are no search, as the web app reads them.
    api.asked.length = 0;
    await createIndexPage(HTML, MANIFEST, api.fetch)('/live-list?q=%20&sort=loudest');
    expect(api.asked.sort()).toEqual(['/api/categories', '/api/classes?page=0&target=live']);
  });

  it('leaves out answers that failed and banners that are not paths of this site', async () => {
    const api = fakeApi({
      '/api/classes?page=0&target=live': envelope([item(1, 'javascript:alert(1)'), item(2, null)]),
      '/api/classes?page=0&target=topten': envelope([item(3, '//elsewhere.test/a.jpg')]),
      '/api/categories': null,
    });
    const page = await createIndexPage(HTML, null, api.fetch)('/');
    expect(Object.keys(embedded(page)).sort()).toEqual([
      '/api/classes?page=0&target=live',
      '/api/classes?page=0&target=topten',
    ]);
    expect((await createIndexPage(HTML, null, api.fetch)('/list')).includes('/api/categories')).toBe(false);
    expect(page).not.toContain('rel="preload"');
    expect(page).not.toContain('modulepreload');
  });

  it('serves every other page, and a page without the marks, as built', async () => {
    const api = fakeApi({});
    for (const url of ['/lecture/info/3', '/mypage', '/listing', '/live/student/1']) {
      expect(await createIndexPage(HTML, MANIFEST, api.fetch)(url)).toBe(HTML);
    }
    expect(await createIndexPage('<html>no marks</html>', MANIFEST, api.fetch)('/')).toBe(
      '<html>no marks</html>',
    );
    expect(api.asked).toEqual([]);
  });

  it('keeps hostile text inside the JSON element', async () => {
    const name = '</script><script>alert(1)</script><!-- \u2028 & >';
    const api = fakeApi({ '/api/classes?page=0&target=live': envelope([{ id: 1, name }]) });
    const page = await createIndexPage(HTML, MANIFEST, api.fetch)('/');
    expect(page).not.toContain('<script>alert(1)');
    expect(page.match(/<\/script>/g)).toHaveLength(2);
    expect(embedded(page)['/api/classes?page=0&target=live']).toEqual(envelope([{ id: 1, name }]));
  });
});

describe('scriptSafeJson', () => {
  it.each([
    ['</script>', '"\\u003c/script\\u003e"'],
    ['<!--', '"\\u003c!--"'],
    ['a&b', '"a\\u0026b"'],
    ['\u2028\u2029', '"\\u2028\\u2029"'],
  ])('escapes %j', (text, expected) => {
    expect(scriptSafeJson(text)).toBe(expected);
    expect(JSON.parse(scriptSafeJson(text))).toBe(text);
  });
});
