/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loginThroughDev, signUpThroughUi, storedTokens } from './harness/accounts.ts';
import { ApiClient } from './harness/api.ts';
import { chromiumAvailable, launchChromium } from '../harness/chromium.ts';
import type { JourneyBrowser } from '../harness/chromium.ts';
import { eventually } from './harness/poll.ts';
import { captureScreen } from './harness/screens.ts';
import { startServer } from '../harness/server-process.ts';
import type { RunningServer } from '../harness/server-process.ts';
import { buildWebOnce } from '../harness/web-build.ts';

const PROGRAMMING = 13;

const DRAWING = 1;

/**
 * One sample of the home carousel: when (page clock, ms) and which slides (1-based ranks) are wholly in view,
 * left to right.
 */
type CarouselSample = { at: number; visible: number[] };

/**
 * Watches the top-10 carousel in the page for `durationMs`, sampling every 50 ms which cards lie wholly inside
 * its viewport (a card half slid in does not count).
 */
function watchCarousel(page: Page, durationMs: number): Promise<CarouselSample[]> {
  return page.evaluate(async (duration) => {
    const region = document.querySelector('[aria-roledescription="carousel"]');
    const viewport = region?.querySelector('[data-slides-visible]');
    if (!region || !viewport) throw new Error('no carousel on the page');
    const slides = [...region.querySelectorAll('[aria-roledescription="slide"]')];
    const samples: { at: number; visible: number[] }[] = [];
    const started = performance.now();
    while (performance.now() - started < duration) {
      const view = viewport.getBoundingClientRect();
      const visible: { rank: number; left: number }[] = [];
      slides.forEach((slide, index) => {
        const card = slide.querySelector('article')?.getBoundingClientRect();
        if (card && card.width > 0 && card.left >= view.left - 1 && card.right <= view.right + 1)
          visible.push({ rank: index + 1, left: card.left });
      });
      visible.sort((a, b) => a.left - b.left);
      samples.push({ at: performance.now(), visible: visible.map((card) => card.rank) });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return samples;
  }, durationMs);
}

/** The samples where three cards rest in view, reduced to when each resting position began and its first card. */
function restingPositions(samples: CarouselSample[]): { at: number; first: number }[] {
  const positions: { at: number; first: number }[] = [];
  for (const sample of samples) {
    const first = sample.visible[0];
    if (sample.visible.length !== 3 || first === undefined) continue;
    if (positions.at(-1)?.first !== first) positions.push({ at: sample.at, first });
  }
  return positions;
}

describe.skipIf(!chromiumAvailable())('catalogue and login journeys', () => {
  let server: RunningServer;
  let browser: JourneyBrowser;
  let teacher: ApiClient;
  let student: ApiClient;

  const newPage = () => browser.newPage();

  /**
   * A logged-out page. The local storage is cleared where no app runs (the server's /health on the same
   * origin), with the context's other pages closed, so that no running app, still logged in, writes refreshed
   * tokens back after the clear (on a loaded machine one did, and /mypage stayed logged in).
   */
  async function freshContextPage(): Promise<{ page: Page; context: BrowserContext }> {
    const context = browser.context;
    await Promise.all(context.pages().map((open) => open.close()));
    const page = await newPage();
    await page.goto(`${server.baseUrl}/health`);
    await page.evaluate(() => localStorage.clear());
    return { page, context };
  }

  beforeAll(async () => {
    const dist = buildWebOnce();
    server = await startServer(dist);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('the 404 page says the page is missing and leads home; so does a class id that cannot exist', async () => {
    const page = await newPage();
    await page.goto(`${server.baseUrl}/no/such/page`);
    await page.getByRole('heading', { name: '이런! 페이지를 찾을 수 없어요.' }).waitFor();
    expect(await page.title()).toBe('페이지를 찾을 수 없어요 · 바다학원');
    expect(await captureScreen(page, 'not-found')).toEqual([]);
    await page.getByRole('button', { name: '메인으로 돌아가기' }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await eventually(() => page.title()).toBe('바다학원');
    // A class address whose id no class can have is a missing page too, not a failed load.
    await page.goto(`${server.baseUrl}/lecture/info/abc`);
    await page.getByRole('heading', { name: '이런! 페이지를 찾을 수 없어요.' }).waitFor();
    expect(await page.title()).toBe('페이지를 찾을 수 없어요 · 바다학원');
    await page.close();
  });

  test('a new teacher logs in with the dev provider and signs up with a photo', async () => {
    const { page } = await freshContextPage();
    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('heading', { name: '로그인' }).waitFor();
    expect(await captureScreen(page, 'login')).toEqual([]);

    // The callback screen shows while the code is exchanged: hold that answer to look at the screen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/auth\/kakao\/callback\?/, async (route) => {
      await held;
      await route.continue();
    });
    const loggingIn = loginThroughDev(page, server.baseUrl, '7001');
    await page.getByText('바다학원으로 이동 중이에요...').waitFor({ timeout: 20_000 });
    expect(await captureScreen(page, 'login-callback', { settle: false })).toEqual([]);
    release();
    await loggingIn;
    await page.unrouteAll();
    expect(new URL(page.url()).pathname).toBe('/sign-info');
    await page.getByRole('heading', { name: '회원가입' }).waitFor();
    expect(await captureScreen(page, 'sign-up')).toEqual([]);
    await signUpThroughUi(page, '고래선생', { photo: true });
    await page.getByRole('status').filter({ hasText: '회원가입이 완료되었어요.' }).waitFor();
    // The header shows the uploaded avatar, labelled 'my classroom'.
    const account = page.getByRole('link', { name: '내 강의실' });
    await account.waitFor();
    expect(await account.locator('img').getAttribute('src')).toMatch(/^\/uploads\//);
    teacher = new ApiClient(server.baseUrl, await storedTokens(page));
    await page.close();
  });

  test('a second user signs up without a photo and gets a sea-creature avatar', async () => {
    const { page } = await freshContextPage();
    await loginThroughDev(page, server.baseUrl, '7002');
    await signUpThroughUi(page, '해마학생');
    const avatar = page.getByRole('link', { name: '내 강의실' }).locator('img');
    await avatar.waitFor();
    expect(await avatar.getAttribute('src')).not.toMatch(/^\/uploads\//);
    student = new ApiClient(server.baseUrl, await storedTokens(page));
    await page.close();
  });

  test('the home page shows the top-10 carousel and the live grid', async () => {
    const ids: number[] = [];
    for (let index = 0; index < 30; index += 1) {
      const category = index < 5 ? PROGRAMMING : DRAWING;
      const name = category === PROGRAMMING ? `타입스크립트 ${index + 1}강` : `수채화 기초 ${index + 1}`;
      ids.push(await teacher.createClass({ categoryId: category, name }, index % 3 === 0));
    }
    for (const id of ids.slice(0, 4)) await student.enroll(id);
    for (const id of ids.slice(0, 2)) await teacher.setLive(id, true);

    const page = await newPage();
    await page.goto(`${server.baseUrl}/`);
    const carousel = page.getByRole('region', { name: 'TOP 10 강의 목록' });
    await carousel.waitFor();
    expect(await carousel.getByRole('group').count()).toBe(10);
    // Most students first: the four enrolled classes lead, ranked 01..04.
    expect(await carousel.getByRole('group').first().textContent()).toContain('01');
    const liveGrid = page.locator('section[aria-labelledby="home-live"] ul > li');
    await eventually(() => liveGrid.count()).toBe(2);

    // Autoplay: three cards in view, one step of one card about every 5 s (two steps watched, to time the
    // second from the first), never more than three cards wholly in view.
    const samples = await watchCarousel(page, 12_500);
    expect(Math.max(...samples.map((sample) => sample.visible.length))).toBe(3);
    const positions = restingPositions(samples);
    expect(positions.length).toBeGreaterThanOrEqual(3);
    const [first, second, third] = positions;
    if (!first || !second || !third) throw new Error('the carousel did not move twice');
    expect(second.first).toBe((first.first % 10) + 1);
    expect(third.first).toBe((second.first % 10) + 1);
    expect(third.at - second.at).toBeGreaterThan(4_500);
    expect(third.at - second.at).toBeLessThan(5_700);
    // At rest the three cards are neighbours in rank order (past 10 the loop continues at 01).
    for (const { visible } of samples.filter((sample) => sample.visible.length === 3)) {
      const [left = 0] = visible;
      expect(visible).toEqual([0, 1, 2].map((step) => ((left - 1 + step) % 10) + 1));
    }
    expect(await captureScreen(page, 'home')).toEqual([]);

    await page.getByRole('button', { name: '다음 강의 보기' }).click();
    await page.close();
  });

  test('/list scrolls through 30 classes 12 at a time and stops at the first empty page', async () => {
    const page = await newPage();
    const pages: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/classes' && url.searchParams.get('target') === null) {
        pages.push(url.searchParams.get('page') ?? '');
      }
    });
    await page.setViewportSize({ width: 400, height: 800 });
    await page.goto(`${server.baseUrl}/list`);
    const cards = page.locator('ul[aria-label="전체 강의"] > li');
    await eventually(() => cards.count()).toBe(12);
    expect(await page.title()).toBe('전체 강의 · 바다학원');
    // Scroll down until the empty page 3 has been asked for (bounded).
    for (let round = 0; round < 12 && !pages.includes('3'); round += 1) {
      await page.mouse.wheel(0, 20_000);
      await page.waitForTimeout(500);
    }
    expect(await cards.count()).toBe(30);
    // Page 0 comes inside the page's HTML; then pages in order, each once (a page aborted by the browser may be
    // asked again), none after the empty one.
    expect([...new Set(pages)]).toEqual(['1', '2', '3']);
    await page.mouse.wheel(0, 20_000);
    await page.waitForTimeout(800);
    expect([...new Set(pages)]).toEqual(['1', '2', '3']);
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await captureScreen(page, 'list')).toEqual([]);
    await page.close();
  });

  test('/list filters by category (buttons on wide screens) and /live-list shows only live classes', async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.baseUrl}/list`);
    await page.getByRole('heading', { name: '수강생 수 TOP 10 강의' }).waitFor();
    await page
      .getByRole('group', { name: '카테고리로 강의 찾기' })
      .getByRole('button', { name: '프로그래밍' })
      .click();
    await page.waitForURL(/category=13/);
    const cards = page.locator('ul[aria-label="전체 강의"] > li');
    await eventually(() => cards.count()).toBe(5);
    expect(await cards.allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('타입스크립트')]),
    );

    await page.goto(`${server.baseUrl}/live-list`);
    await page.getByRole('heading', { name: '라이브: 모두가 함께 보고 있는 실시간 강의' }).waitFor();
    const live = page.locator('ul[aria-label="라이브: 모두가 함께 보고 있는 실시간 강의"] > li');
    await eventually(() => live.count()).toBe(2);
    expect(await captureScreen(page, 'live-list')).toEqual([]);
    await page.close();
  });

  test('a logged-out visitor of /mypage logs in and comes back; my page deletes a class after confirming', async () => {
    const { page } = await freshContextPage();
    await page.goto(`${server.baseUrl}/mypage`);
    await page.waitForURL((url) => url.pathname === '/login');
    await loginThroughDev(page, server.baseUrl, '7001', (pathname) => pathname === '/mypage');
    await page.waitForURL((url) => url.pathname === '/mypage');
    await page.getByRole('heading', { name: '고래선생님의 강의 관리' }).waitFor();
    const cards = page.locator('ul[aria-label="내가 개설한 강의"] > li');
    // The desktop window shows more than one page of cards, so the next pages load at once.
    await eventually(() => cards.count()).toBeGreaterThanOrEqual(12);
    expect(await captureScreen(page, 'mypage')).toEqual([]);

    const firstName = (await cards.first().locator('h2').textContent()) ?? '';
    await cards
      .first()
      .getByRole('button', { name: `${firstName} 강의 삭제` })
      .click();
    const dialog = page.getByRole('alertdialog', { name: '강의를 삭제하시겠어요?' });
    await dialog.waitFor();
    expect(await captureScreen(page, 'mypage-delete-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: '강의 삭제' }).click();
    await page.getByRole('status').filter({ hasText: '강의를 삭제했어요.' }).waitFor();
    await eventually(() =>
      page.locator('ul[aria-label="내가 개설한 강의"] h2').allTextContents(),
    ).not.toContain(firstName);
    await page.close();
  });

  test('/classroom lists the classes a student enrolled in', async () => {
    const { page } = await freshContextPage();
    await loginThroughDev(page, server.baseUrl, '7002');
    await page.goto(`${server.baseUrl}/classroom`);
    const cards = page.locator('ul[aria-label="내가 수강 중인 강의"] > li');
    await eventually(() => cards.count()).toBe(4);
    expect(await cards.first().getByRole('link').first().getAttribute('href')).toMatch(
      /^\/dashboard\/student\/\d+$/,
    );
    expect(await captureScreen(page, 'classroom')).toEqual([]);
    await page.close();
  });
});
