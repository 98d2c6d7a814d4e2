import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loginThroughDev, signUpThroughUi, storedTokens } from './harness/accounts.ts';
import { ApiClient } from './harness/api.ts';
import { chromiumAvailable, launchChromium } from './harness/chromium.ts';
import type { JourneyBrowser } from './harness/chromium.ts';
import { startServer } from './harness/server-process.ts';
import type { RunningServer } from './harness/server-process.ts';
import { buildWebOnce } from './harness/web-build.ts';

const CLASS_NAME = '수채화 바다 풍경';

/**
 * Issue 20's journey, one step per test (each builds on the one before): a student searches, opens a class
 * from the results, reads its (empty) reviews, enrols and writes a review; the teacher's reply arrives as a
 * notice; the teacher going live shows on the bell, whose 'enter' takes the student into the live room.
 */
describe.skipIf(!chromiumAvailable())('discovery journey', { timeout: 90_000 }, () => {
  let server: RunningServer;
  let teacherBrowser: JourneyBrowser;
  let studentBrowser: JourneyBrowser;
  let page: Page;
  let teacher: ApiClient;
  let classId = 0;

  beforeAll(async () => {
    const dist = buildWebOnce();
    server = await startServer(dist);
    teacherBrowser = await launchChromium();
    studentBrowser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await teacherBrowser?.close();
    await studentBrowser?.close();
    await server?.stop();
  });

  test('a teacher opens a class; a student signs up', async () => {
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
    await teacherPage.close();

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

  test('the class page shows no reviews yet; the student enrols', async () => {
    await page.getByRole('link', { name: new RegExp(CLASS_NAME) }).click();
    await page.waitForURL((url) => url.pathname === `/lecture/info/${classId}`);
    await page.getByRole('heading', { name: '수강평' }).waitFor();
    await page.getByText('아직 수강평이 없어요. 첫 수강평을 기다리고 있어요.').waitFor();
    expect(await page.getByRole('link', { name: '물감선생 강사' }).getAttribute('href')).toMatch(
      /^\/instructor\//,
    );
    await page.getByRole('button', { name: '수강 신청하기' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/enrollment'));
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

  test('the teacher goes live: the bell shows it and its enter button opens the live room', async () => {
    await teacher.setLive(classId, true);
    const bell = page.getByRole('button', { name: '알림 2개 읽지 않음' });
    await bell.waitFor({ timeout: 10_000 });
    await bell.click();
    await page.getByRole('menuitem', { name: /라이브를 시작했어요.*입장하기/ }).click();
    await page.waitForURL((url) => url.pathname === `/live/student/${classId}`);
  });
});
