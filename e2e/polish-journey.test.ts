/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
import type { ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loginThroughDev, signUpThroughUi, storedTokens } from './harness/accounts.ts';
import { ApiClient } from './harness/api.ts';
import { chromiumAvailable, launchChromium } from '../harness/chromium.ts';
import type { JourneyBrowser } from '../harness/chromium.ts';
import { planMedia, startMedia } from '../harness/media-process.ts';
import { makePng } from './harness/png.ts';
import { eventually } from './harness/poll.ts';
import { captureScreen } from './harness/screens.ts';
import { startServer } from '../harness/server-process.ts';
import type { RunningServer } from '../harness/server-process.ts';
import { buildWebOnce } from '../harness/web-build.ts';

const PROGRAMMING = 13;

type Box = { x: number; y: number; width: number; height: number };

/** Whether two boxes share any area (touching edges do not count). */
function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(page: Page, selector: string): Promise<Box> {
  const found = await page.locator(selector).first().boundingBox();
  if (found === null) throw new Error(`${selector} is not shown`);
  return found;
}

/**
 * Issue 19 through the pages, at 400 and 1280 px: what a new Korean user noticed first (bottom navigation,
 * exact counts, the carousel on a phone, removing a photo, the room before the class is live, LIVE cards,
 * notices, empty pages, a stranger's dashboard, the room's status bar, loading cards, the Kakao button, a
 * visitor's private page). The API server and the media service run on loopback.
 */
describe.skipIf(!chromiumAvailable())('polish of the first screens (issue 19)', { timeout: 120_000 }, () => {
  let server: RunningServer;
  let media: RunningServer;
  let teacherBrowser: JourneyBrowser;
  let studentBrowser: JourneyBrowser;
  let teacherPage: Page;
  let studentPage: Page;
  let teacher: ApiClient;
  let student: ApiClient;
  const ids: number[] = [];
  let enrolledId = 0;
  let strangerId = 0;

  beforeAll(async () => {
    const dist = buildWebOnce();
    const link = await planMedia();
    server = await startServer(dist, { env: { MEDIA_URL: link.mediaUrl, MEDIA_SECRET: link.secret } });
    media = await startMedia(link, server.baseUrl);
    teacherBrowser = await launchChromium();
    studentBrowser = await launchChromium();
    teacherPage = await teacherBrowser.newPage();
    studentPage = await studentBrowser.newPage();
  }, 240_000);

  afterAll(async () => {
    await teacherBrowser?.close();
    await studentBrowser?.close();
    await media?.stop();
    await server?.stop();
  });

  test('13 and 12: a visitor of /classroom goes to the login without asking the API; the Kakao symbol', async () => {
    // Its own tab: the page it remembers for after the login stays in this tab's session storage.
    const visitor = await studentBrowser.newPage();
    const asked: string[] = [];
    visitor.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/auth/'))
        asked.push(url.pathname);
    });
    for (const path of ['/classroom', '/mypage']) {
      await visitor.goto(`${server.baseUrl}${path}`);
      await visitor.waitForURL((url) => url.pathname === '/login');
    }
    await visitor.getByRole('button', { name: /카카오로 로그인/ }).waitFor();
    expect(asked).toEqual([]);
    const symbol = visitor.locator('button svg[data-symbol="kakao"]');
    expect(await symbol.count()).toBe(1);
    expect(await captureScreen(visitor, 'polish-login')).toEqual([]);
    await visitor.close();
  });

  test('1 and 8: Korean bottom navigation; a new teacher’s and student’s empty pages offer the next step', async () => {
    await loginThroughDev(teacherPage, server.baseUrl, '7101');
    await signUpThroughUi(teacherPage, '파도폴리시');
    teacher = new ApiClient(server.baseUrl, await storedTokens(teacherPage));
    await teacherPage.goto(`${server.baseUrl}/mypage`);
    await teacherPage.getByText(/아직 개설한 강의가 없어요/).waitFor();
    expect(await teacherPage.getByRole('link', { name: '강의 개설하기' }).count()).toBe(2);
    const nav = teacherPage.getByRole('navigation', { name: '주요 메뉴' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['라이브', '강의', '홈', '내 학습']);
    expect(await captureScreen(teacherPage, 'polish-mypage-empty')).toEqual([]);

    await loginThroughDev(studentPage, server.baseUrl, '7102');
    await signUpThroughUi(studentPage, '산호폴리시');
    student = new ApiClient(server.baseUrl, await storedTokens(studentPage));
    await studentPage.goto(`${server.baseUrl}/classroom`);
    await studentPage.getByText(/아직 수강 중인 강의가 없어요/).waitFor();
    expect(await studentPage.getByRole('link', { name: '강의 둘러보기' }).getAttribute('href')).toBe('/list');
    expect(await captureScreen(studentPage, 'polish-classroom-empty')).toEqual([]);

    // Issue 32 item 13: on a phone the header keeps '내 강의실' on one line, beside the bell and the search,
    // with the logo in the middle.
    await studentPage.setViewportSize({ width: 400, height: 900 });
    await studentPage.getByRole('button', { name: /^알림/ }).waitFor();
    const label = await box(studentPage, 'header a[href="/mypage"] span:last-child');
    const logo = await box(studentPage, 'header a[href="/"]');
    expect(label.height).toBeLessThan(20);
    expect(Math.abs(logo.x + logo.width / 2 - 200)).toBeLessThan(2);
    expect(label.x + label.width).toBeLessThanOrEqual(400);
  });

  test('2 and 11: skeleton cards while loading, then the exact total before the list is scrolled', async () => {
    for (let n = 1; n <= 14; n += 1) {
      ids.push(await teacher.createClass({ categoryId: PROGRAMMING, name: `폴리시 강의 ${n}` }, n <= 2));
    }
    // Hold the first page to see the loading state, then let it through.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await teacherPage.route(
      (url) => url.pathname === '/api/classes' && url.searchParams.get('target') === 'created',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    // The mobile column: twelve cards are six rows, so the second page waits for a scroll.
    await teacherPage.setViewportSize({ width: 400, height: 900 });
    await teacherPage.goto(`${server.baseUrl}/mypage`);
    const skeleton = teacherPage.locator('[data-skeleton="classes"] li');
    await eventually(() => skeleton.count()).toBe(8);
    expect(await captureScreen(teacherPage, 'polish-skeleton', { settle: false })).toEqual([]);
    release();
    const cards = teacherPage.locator('ul[aria-label="내가 개설한 강의"] > li');
    await eventually(() => cards.count()).toBe(12);
    await teacherPage.getByText('14개', { exact: true }).waitFor();
    expect(await teacherPage.getByText(/이상/).count()).toBe(0);
    await teacherPage.unroute(() => true);
    expect(await captureScreen(teacherPage, 'polish-mypage-total')).toEqual([]);

    // Issue 32 item 17: at 1280 px /list's TOP 10 row holds its final height while it loads (grey cards of
    // the final shape), so the list under it does not jump when the cards arrive.
    let releaseTopTen: () => void = () => {};
    const topTenHeld = new Promise<void>((resolve) => {
      releaseTopTen = resolve;
    });
    await teacherPage.route(
      (url) => url.pathname === '/api/classes' && url.searchParams.get('target') === 'topten',
      async (route) => {
        await topTenHeld;
        await route.continue();
      },
    );
    await teacherPage.setViewportSize({ width: 1280, height: 900 });
    await teacherPage.goto(`${server.baseUrl}/list`);
    await teacherPage.locator('[data-skeleton="top-ten"]').waitFor();
    await teacherPage.locator('ul[aria-label] > li').first().waitFor();
    const loadingY = (await box(teacherPage, '#class-list-title')).y;
    releaseTopTen();
    await teacherPage.locator('[aria-roledescription="carousel"]').waitFor();
    await teacherPage.locator('[aria-roledescription="carousel"] img').first().waitFor();
    expect(Math.abs((await box(teacherPage, '#class-list-title')).y - loadingY)).toBeLessThan(1);
    await teacherPage.unroute(() => true);
  });

  test('9: a student who is not enrolled is told the dashboard is for students, with the enrol button', async () => {
    enrolledId = ids[0] as number;
    strangerId = ids[1] as number;
    await student.enroll(enrolledId);
    await studentPage.goto(`${server.baseUrl}/dashboard/student/${strangerId}`);
    await studentPage.getByText(/이 대시보드는 수강생만 볼 수 있어요/).waitFor();
    expect(await studentPage.getByText('강의 정보를 불러오지 못했어요.').count()).toBe(0);
    await studentPage.getByRole('button', { name: '수강 신청하기' }).waitFor();
    expect(await captureScreen(studentPage, 'polish-dashboard-not-member')).toEqual([]);
  });

  test("32 (19): a stranger's live room and replay log no error: the class's role is asked first", async () => {
    const errors: string[] = [];
    const onConsole = (message: ConsoleMessage) => {
      if (message.type() === 'error') errors.push(message.text());
    };
    studentPage.on('console', onConsole);
    await studentPage.goto(`${server.baseUrl}/live/student/${strangerId}`);
    await studentPage.waitForURL((url) => url.pathname === `/lecture/info/${strangerId}`);
    await studentPage.getByText('강의에 접근할 권한이 없어요.').waitFor();
    await studentPage.goto(`${server.baseUrl}/dashboard/student/${strangerId}/replays/1`);
    await studentPage.getByText('이 강의의 강사와 수강생만 이용할 수 있어요.').waitFor();
    studentPage.off('console', onConsole);
    expect(errors).toEqual([]);
  });

  test('5 and 10: before the class is live, the refusal once over the whole screen and the chat off', async () => {
    await studentPage.goto(`${server.baseUrl}/live/student/${enrolledId}`);
    const refusal = studentPage.getByRole('alert').filter({ hasText: '라이브 강의 중이 아니에요' });
    await refusal.waitFor({ timeout: 30_000 });
    const chat = studentPage.getByRole('region', { name: '채팅' });
    await chat.getByText('강의가 시작되면 채팅이 열려요.').waitFor();
    expect(await chat.getByRole('textbox').count()).toBe(0);
    await studentPage.waitForTimeout(1_000);
    // Once: no notice repeats it.
    expect(await studentPage.getByText(/라이브 강의 중이 아니에요/).count()).toBe(1);
    for (const width of [400, 1280]) {
      await studentPage.setViewportSize({ width, height: 900 });
      await studentPage.waitForTimeout(200);
      // The refusal covers the screen area, the webcam tile included: its link is clear of the tile.
      const link = await box(studentPage, 'a:has-text("대시보드로 돌아가기")');
      const hit = await studentPage.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-slot="webcam"]') !== null,
        { x: link.x + link.width / 2, y: link.y + link.height / 2 },
      );
      expect(hit, `link over the webcam tile at ${width}`).toBe(false);
    }
    expect(await captureScreen(studentPage, 'polish-room-not-live')).toEqual([]);
  });

  test('6: a LIVE card leads a member into the room, others to the class page', async () => {
    await teacher.setLive(enrolledId, true);
    await teacher.setLive(strangerId, true);
    await studentPage.goto(`${server.baseUrl}/live-list`);
    const card = (id: number) => studentPage.locator(`ul > li a[href$="/${id}"]`).first();
    await eventually(() => card(enrolledId).getAttribute('href')).toBe(`/live/student/${enrolledId}`);
    expect(await card(strangerId).getAttribute('href')).toBe(`/lecture/info/${strangerId}`);
    expect(await captureScreen(studentPage, 'polish-live-list')).toEqual([]);
    await teacherPage.goto(`${server.baseUrl}/`);
    const teacherCard = teacherPage.locator(`section[aria-labelledby="home-live"] a[href$="/${enrolledId}"]`);
    await eventually(() => teacherCard.getAttribute('href')).toBe(`/live/teacher/${enrolledId}`);
    await card(enrolledId).click();
    await studentPage.waitForURL((url) => url.pathname === `/live/student/${enrolledId}`);
    await teacher.setLive(enrolledId, false);
    await teacher.setLive(strangerId, false);
  });

  test('3: the top-10 carousel on a phone shows one wide card with the next peeking, arrows under it', async () => {
    await studentPage.goto(`${server.baseUrl}/`);
    const carousel = studentPage.getByRole('region', { name: 'TOP 10 강의 목록' });
    await carousel.waitFor();
    await studentPage.setViewportSize({ width: 400, height: 900 });
    await studentPage.waitForTimeout(600);
    const cardBoxes = await carousel.locator('article').evaluateAll((cards) =>
      cards.map((card) => {
        const rect = card.getBoundingClientRect();
        return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
      }),
    );
    const view = await box(studentPage, '[data-slides-visible]');
    const inView = cardBoxes.filter((card) => card.x < view.x + view.width && card.x + card.width > view.x);
    expect(cardBoxes[0]?.width ?? 0).toBeGreaterThan(250);
    expect(inView.length).toBe(2);
    for (const name of ['이전 강의 보기', '다음 강의 보기']) {
      const arrow = await carousel.getByRole('button', { name }).boundingBox();
      if (arrow === null) throw new Error(`${name} is not shown`);
      for (const card of cardBoxes) expect(overlap(arrow, card), name).toBe(false);
    }
    expect(await captureScreen(studentPage, 'polish-home')).toEqual([]);
    // Desktop keeps three cards.
    await studentPage.setViewportSize({ width: 1280, height: 900 });
    await studentPage.waitForTimeout(600);
    expect(await carousel.locator('[data-slides-visible]').getAttribute('data-slides-visible')).toBe('3');
    const wideView = await box(studentPage, '[data-slides-visible]');
    const wide = await carousel.locator('article').first().boundingBox();
    expect(wide?.width ?? 0).toBeLessThan(wideView.width / 2.5);
  });

  test('7 and 4: one notice for a file rejected twice, below the header; a saved photo removed', async () => {
    await studentPage.goto(`${server.baseUrl}/edit-info`);
    const picker = studentPage.getByLabel('프로필 사진');
    const bad = { name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') };
    await picker.setInputFiles(bad);
    await picker.setInputFiles([]);
    await picker.setInputFiles(bad);
    const notice = studentPage.getByRole('alert').filter({ hasText: '올바르지 않은 파일이에요' });
    await notice.waitFor();
    await studentPage.waitForTimeout(300);
    expect(await notice.count()).toBe(1);
    for (const width of [400, 1280]) {
      await studentPage.setViewportSize({ width, height: 900 });
      const header = await box(studentPage, 'header');
      const shown = await box(studentPage, 'section[aria-label="알림"] > div');
      expect(shown.y).toBeGreaterThanOrEqual(header.y + header.height);
    }
    expect(await captureScreen(studentPage, 'polish-notice', { settle: false })).toEqual([]);

    await picker.setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: makePng(120, 120, [29, 111, 214], [127, 211, 247]),
    });
    await studentPage.getByRole('button', { name: '저장', exact: true }).click();
    await studentPage.getByRole('status').filter({ hasText: '프로필을 저장했어요.' }).waitFor();
    const me = async () => {
      const response = await fetch(`${server.baseUrl}/api/users`, {
        headers: { Authorization: `Bearer ${(await storedTokens(studentPage)).accessToken}` },
      });
      return ((await response.json()) as { data: { profile_image_path: string | null } }).data;
    };
    const saved = (await me()).profile_image_path;
    expect(saved).toMatch(/^\/uploads\/avatars\//);
    await studentPage.getByRole('button', { name: '삭제', exact: true }).click();
    await studentPage.getByText('저장하면 기본 프로필 사진으로 바뀌어요.').waitFor();
    expect(await captureScreen(studentPage, 'polish-photo-removal')).toEqual([]);
    await studentPage.getByRole('button', { name: '저장', exact: true }).click();
    await eventually(async () => (await me()).profile_image_path).toBeNull();
    // The file goes right after the row (the save's answer waits for both); asked in between, it may still be
    // served whole, but never fail.
    const statuses: number[] = [];
    await eventually(async () => {
      statuses.push((await fetch(`${server.baseUrl}${saved}`)).status);
      return statuses.at(-1);
    }).toBe(404);
    expect(statuses.filter((status) => status !== 200 && status !== 404)).toEqual([]);
  });

  test('10: in a live room the student’s status bar sits under the screen, not over it', async () => {
    await teacherPage.goto(`${server.baseUrl}/live/teacher/${enrolledId}`);
    await teacherPage.getByRole('group', { name: '방송 설정' }).waitFor();
    await studentPage.goto(`${server.baseUrl}/live/student/${enrolledId}`);
    const status = studentPage.getByRole('status', { name: '연결 상태' });
    await eventually(() => status.textContent()).toBe('연결됨');
    for (const width of [400, 1280]) {
      await studentPage.setViewportSize({ width, height: 900 });
      await studentPage.waitForTimeout(200);
      const screen = await box(studentPage, '[data-slot="screen"]');
      const bar = await status.boundingBox();
      if (bar === null) throw new Error('no status');
      expect(overlap(bar, screen)).toBe(false);
      expect(bar.y).toBeGreaterThanOrEqual(screen.y + screen.height);
    }
    expect(await captureScreen(studentPage, 'polish-room-live')).toEqual([]);
  });
});
