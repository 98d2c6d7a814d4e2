import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loginThroughDev, signUpThroughUi, storedTokens } from './harness/accounts.ts';
import { ApiClient } from './harness/api.ts';
import { chromiumAvailable, launchChromium } from '../harness/chromium.ts';
import type { JourneyBrowser } from '../harness/chromium.ts';
import { ARTIFACTS } from '../harness/paths.ts';
import { captureScreen } from './harness/screens.ts';
import { startServer } from '../harness/server-process.ts';
import type { RunningServer } from '../harness/server-process.ts';
import { buildWebOnce } from '../harness/web-build.ts';

const CLASS_NAME = '수채화 바다 풍경';
const DAY_MS = 86_400_000;

/** Where the real clock is in Asia/Seoul, the zone schedules are written in. */
function seoulNow(days = 0): { date: string; hour: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Seoul',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(Date.now() + days * DAY_MS));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

/**
 * Today's session: 20:00-21:00 in Seoul while that is still ahead, else from the next full hour to the day's
 * end (from midnight in the day's last hour), so it is always today and not yet over.
 */
function todaysSession(): { start: number; end: string } {
  const { hour } = seoulNow();
  if (hour < 20) return { start: 20, end: '21:00:00' };
  return { start: hour < 23 ? hour + 1 : 0, end: '23:59:59' };
}

/** '20:00' for 20, '00:00' for 0: how the card and the class page say an hour (the app's one clock style). */
const clockHour = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** Two replays the students may watch and one the teacher hid, written into the stopped server's database. */
async function seedReplays(dataDir: string, classId: number): Promise<void> {
  const db = new PGlite(path.join(dataDir, 'pglite'));
  try {
    for (const [days, hidden] of [
      [3, false],
      [2, true],
      [1, false],
    ] as const) {
      const started = new Date(Date.now() - days * DAY_MS);
      await db.query(
        `insert into live_sessions (class_id, media_key, node_id, started_at, ended_at, recording_state,
           recording_progress, replay_duration_ms, hidden)
         values ($1, $2, 'e2e-node', $3, $4, 'ready', 100, 3600000, $5)`,
        [classId, `e2e-discovery-${days}`, started, new Date(started.getTime() + 3_600_000), hidden],
      );
    }
  } finally {
    await db.close();
  }
}

/**
 * Issue 20's journey, one step per test (each builds on the one before): a student searches, sees on the
 * result's card that the class goes live today, opens it and reads its schedule, replays and (empty)
 * reviews, follows the teacher's name to their page, enrols and writes a review; the teacher's reply
 * arrives as a notice; the teacher going live shows on the bell, whose 'enter' takes the student into the
 * live room.
 */
describe.skipIf(!chromiumAvailable())('discovery journey', { timeout: 90_000 }, () => {
  let server: RunningServer;
  let teacherBrowser: JourneyBrowser;
  let studentBrowser: JourneyBrowser;
  let page: Page;
  let teacher: ApiClient;
  let classId = 0;
  const today = todaysSession();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-e2e-discovery-'));
  let dist = '';

  beforeAll(async () => {
    dist = buildWebOnce();
    // Both runs of the server (before and after the replays are seeded) on one origin and data folder, so
    // the logins (local storage, the kept JWT secret) stay valid across them.
    server = await startServer(dist, { dataDir });
    teacherBrowser = await launchChromium();
    studentBrowser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await teacherBrowser?.close();
    await studentBrowser?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('a teacher opens a class with a schedule and replays; a student signs up', async () => {
    const teacherPage = await teacherBrowser.newPage();
    await loginThroughDev(teacherPage, server.baseUrl, '9201');
    await signUpThroughUi(teacherPage, '물감선생');
    teacher = new ApiClient(server.baseUrl, await storedTokens(teacherPage));
    classId = await teacher.createClass({
      categoryId: 19,
      name: CLASS_NAME,
      description: '드로잉부터 채색까지, 바다를 그려요.',
    });
    await teacher.createClass({ categoryId: 13, name: '타입스크립트 입문' });
    const start = `${String(today.start).padStart(2, '0')}:00:00`;
    await teacher.addSchedule(classId, {
      content: '3강 파도 색 섞기',
      date: seoulNow().date,
      start_time: start,
      end_time: today.end,
    });
    await teacher.addSchedule(classId, {
      content: '4강 노을 그리기',
      date: seoulNow(1).date,
      start_time: '19:30:00',
      end_time: '21:00:00',
    });
    await teacherPage.close();
    await server.stop();
    await seedReplays(dataDir, classId);
    server = await startServer(dist, { dataDir, port: Number(new URL(server.baseUrl).port) });

    page = await studentBrowser.newPage();
    await loginThroughDev(page, server.baseUrl, '9202');
    await signUpThroughUi(page, '그림고래');
  });

  test('searching two syllables in the header finds the class, its words marked', async () => {
    await page.getByRole('searchbox', { name: '강의 검색' }).fill('수채');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/list' && url.searchParams.get('q') === '수채');
    await page.getByRole('heading', { level: 1, name: '‘수채’ 검색 결과' }).waitFor();
    const results = page.getByRole('list', { name: '‘수채’ 검색 결과' });
    await results.getByRole('listitem').first().waitFor();
    expect(await results.getByRole('listitem').count()).toBe(1);
    expect(await results.locator('mark').first().textContent()).toBe('수채');
  });

  test("the result's card says when the class goes live today and names its teacher as a link", async () => {
    const card = page.getByRole('list', { name: '‘수채’ 검색 결과' }).getByRole('article');
    await card.getByText(`오늘 ${clockHour(today.start)} 라이브`).waitFor();
    // Two links side by side, none inside the other: the class by its name, the teacher to their page.
    const links = card.getByRole('link');
    expect(await links.count()).toBe(2);
    expect(await links.nth(0).textContent()).toBe(CLASS_NAME);
    expect(await links.nth(1).getAttribute('href')).toMatch(/^\/instructor\//);
    expect(await card.locator('a a').count()).toBe(0);
    // From the keyboard the class link takes focus, and its ring goes round the whole card.
    await links.nth(0).focus();
    expect(await links.nth(0).evaluate((link) => link.matches(':focus-visible'))).toBe(true);
    const ring = await links.nth(0).evaluate((link) => {
      const after = getComputedStyle(link, '::after');
      return { outline: after.outlineStyle, position: after.position };
    });
    expect(ring).toEqual({ outline: 'solid', position: 'absolute' });
    fs.mkdirSync(path.join(ARTIFACTS, 'screens'), { recursive: true });
    await card.screenshot({ path: path.join(ARTIFACTS, 'screens', 'discovery-card-focused.png') });
    await page.keyboard.press('Tab');
    expect(await links.nth(1).evaluate((link) => link === document.activeElement)).toBe(true);
    expect(await captureScreen(page, 'discovery-search-card')).toEqual([]);
  });

  test('the class page shows the next sessions, the replays and no reviews yet', async () => {
    await page.getByRole('link', { name: CLASS_NAME }).click();
    await page.waitForURL((url) => url.pathname === `/lecture/info/${classId}`);
    const schedule = page.getByRole('list', { name: '다가오는 라이브 일정 목록' });
    await schedule.waitFor();
    expect(await schedule.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(new RegExp(`^오늘 ${clockHour(today.start)} ~ .*3강 파도 색 섞기$`)),
      '내일 19:30 ~ 21:004강 노을 그리기',
    ]);
    // Not enrolled: the count of replays (the hidden one left out) and what enrolling opens.
    await page.getByText('다시보기 2개', { exact: true }).waitFor();
    await page.getByText('수강 신청하면 지난 라이브를 다시 볼 수 있어요.').waitFor();
    await page.getByRole('heading', { name: '수강평' }).waitFor();
    await page.getByText('아직 수강평이 없어요. 첫 수강평을 기다리고 있어요.').waitFor();
    expect(await captureScreen(page, 'discovery-class-page')).toEqual([]);
  });

  test("the teacher's name leads to their page, with the class among their classes", async () => {
    await page.getByRole('link', { name: '물감선생 강사' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/instructor/'));
    await page.getByRole('heading', { level: 1, name: '물감선생 강사' }).waitFor();
    const cards = page.getByRole('list', { name: '개설한 강의' });
    await cards.getByRole('link', { name: CLASS_NAME }).waitFor();
    // The card's own teacher link leads back to this same page.
    expect(await cards.getByRole('link', { name: '물감선생 강사' }).first().getAttribute('href')).toBe(
      new URL(page.url()).pathname,
    );
    await cards.getByRole('link', { name: CLASS_NAME }).click();
    await page.waitForURL((url) => url.pathname === `/lecture/info/${classId}`);
  });

  test('the student enrols; the class page then leads to the replays', async () => {
    await page.getByRole('button', { name: '수강 신청하기' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/enrollment'));
    await page.goto(`${server.baseUrl}/lecture/info/${classId}`);
    await page.getByRole('link', { name: '다시보기 2개 보러 가기' }).click();
    await page.waitForURL((url) => url.pathname === `/dashboard/student/${classId}`);
    await page.getByRole('heading', { name: CLASS_NAME }).first().waitFor();
  });

  test('the student writes a review and sees it with the new average', async () => {
    await page.goto(`${server.baseUrl}/lecture/info/${classId}`);
    const form = page.getByRole('form', { name: '수강평 남기기' });
    await form.waitFor();
    // The stars are radio buttons drawn as icons: chosen from the keyboard, as a person might.
    await form.getByRole('radio', { name: '5점' }).focus();
    await page.keyboard.press('Space');
    await form.getByRole('textbox').fill('바다 색을 섞는 법을 드디어 알았어요. 추천해요!');
    await form.getByRole('button', { name: '수강평 등록' }).click();
    await page.getByRole('article', { name: '그림고래' }).waitFor();
    await page.getByText('평균 별점 5.0점').waitFor();
    expect(await page.getByRole('form', { name: '수강평 남기기' }).count()).toBe(0);
  });

  test('the teacher’s reply arrives as a notice on the open page', async () => {
    const [review] = await teacher.reviews(classId);
    if (review === undefined) throw new Error('the review was not stored');
    await teacher.reply(classId, review.id, '그려 주셔서 고마워요!');
    await page.getByRole('button', { name: '알림 1개 읽지 않음' }).waitFor({ timeout: 10_000 });
    await page
      .getByRole('status')
      .filter({ hasText: '강사님이 내 수강평에 답글을 달았어요.' })
      .first()
      .waitFor();
  });

  test('the teacher goes live: a toast that stays and the bell both open the live room', async () => {
    await teacher.setLive(classId, true);
    const bell = page.getByRole('button', { name: '알림 2개 읽지 않음' });
    await bell.waitFor({ timeout: 10_000 });
    // The go-live toast is a door: it outlasts an ordinary notice (4 s) and its '입장하기' enters the room.
    const toast = page.getByRole('status').filter({ hasText: '라이브를 시작했어요' });
    await toast.getByRole('button', { name: '입장하기' }).waitFor();
    await page.waitForTimeout(5_000);
    await toast.getByRole('button', { name: '입장하기' }).click();
    await page.waitForURL((url) => url.pathname === `/live/student/${classId}`);
    await page.goto(`${server.baseUrl}/lecture/info/${classId}`);
    await page
      .getByRole('button', { name: /알림 \d개 읽지 않음|알림/ })
      .first()
      .click();
    await page.getByRole('menuitem', { name: /라이브를 시작했어요.*입장하기/ }).click();
    await page.waitForURL((url) => url.pathname === `/live/student/${classId}`);
  });
});
