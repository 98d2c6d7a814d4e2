/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loginThroughDev, signUpThroughUi, storedTokens } from './harness/accounts.ts';
import { ApiClient } from './harness/api.ts';
import { chromiumAvailable, launchChromium } from '../harness/chromium.ts';
import type { JourneyBrowser } from '../harness/chromium.ts';
import { eventually } from './harness/poll.ts';
import { makePng } from './harness/png.ts';
import { captureScreen } from './harness/screens.ts';
import { startServer } from '../harness/server-process.ts';
import type { RunningServer } from '../harness/server-process.ts';
import { buildWebOnce } from '../harness/web-build.ts';

const CLASS_NAME = '파도 타기 입문';
const NEW_NAME = '파도 타기 심화';

/**
 * Issue 3's class journey, one step per test (each builds on the one before): a teacher opens a class with a
 * banner, a student finds it and enrols, the teacher sees the student, edits and deletes the class; then the
 * student edits the profile and withdraws.
 */
describe.skipIf(!chromiumAvailable())('class journey', { timeout: 90_000 }, () => {
  let server: RunningServer;
  // The teacher and the student each have their own browser profile (local storage holds one account).
  let teacherBrowser: JourneyBrowser;
  let studentBrowser: JourneyBrowser;
  let teacherPage: Page;
  let studentPage: Page;
  let classId = 0;

  async function expectNotice(page: Page, text: string): Promise<void> {
    await page.getByRole('status').filter({ hasText: text }).first().waitFor({ timeout: 15_000 });
  }

  beforeAll(async () => {
    const dist = buildWebOnce();
    server = await startServer(dist);
    teacherBrowser = await launchChromium();
    studentBrowser = await launchChromium();
    teacherPage = await teacherBrowser.newPage();
    studentPage = await studentBrowser.newPage();
  }, 240_000);

  afterAll(async () => {
    await teacherBrowser?.close();
    await studentBrowser?.close();
    await server?.stop();
  });

  test('a teacher signs up with a photo and opens a class with a banner', async () => {
    const page = teacherPage;
    await loginThroughDev(page, server.baseUrl, '8101');
    await signUpThroughUi(page, '고래선생', { photo: true });
    const account = page.getByRole('link', { name: '내 강의실' });
    await account.waitFor();
    expect(await account.locator('img').getAttribute('src')).toMatch(/^\/uploads\//);

    await page.goto(`${server.baseUrl}/lecture/open`);
    await page.getByRole('heading', { name: '강의 개설하기' }).waitFor();
    const submit = page.getByRole('button', { name: '강의 개설하기' });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('배너 이미지').setInputFiles({
      name: 'banner.png',
      mimeType: 'image/png',
      buffer: makePng(640, 360, [11, 61, 145], [25, 179, 196]),
    });
    await page.getByRole('img', { name: '선택한 이미지 미리보기' }).waitFor();
    const category = page.getByLabel(/카테고리/);
    await eventually(() => category.locator('option').count()).toBeGreaterThan(1);
    await category.selectOption({ label: '프로그래밍' });
    await page.getByLabel(/강의 제목/).fill(CLASS_NAME);
    await page.getByLabel(/강의 목표/).fill('파도를 읽고 보드 위에 서요.');
    await page.getByLabel(/강의 설명/).fill('주말마다 라이브로 만나는 서핑 이론 강의예요.');
    await page.getByLabel(/공지사항/).fill('첫 수업은 토요일 오전 10시예요.');
    await eventually(() => submit.isEnabled()).toBe(true);
    expect(await captureScreen(page, 'journey-open-form')).toEqual([]);
    await submit.click();

    const dialog = page.getByRole('alertdialog', { name: '강의가 개설되었어요!' });
    await dialog.waitFor({ timeout: 20_000 });
    expect(await captureScreen(page, 'journey-opened-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: '강의실로 가기' }).click();
    await page.waitForURL(/\/lecture\/info\/\d+$/);
    classId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(classId).toBeGreaterThan(0);
    await page.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();
    const banner = page.getByRole('img', { name: `${CLASS_NAME} 강의 배너` }).first();
    await banner.waitFor();
    expect(await banner.getAttribute('src')).toMatch(/^\/uploads\//);
    // The banner really loads (the server serves the uploaded file).
    await eventually(() => banner.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(640);
    await page.getByRole('button', { name: '대시보드로 가기' }).waitFor();
    expect(await captureScreen(page, 'journey-class-info-teacher')).toEqual([]);
  });

  test('the class-created page counts down and its button leads to the class introduction', async () => {
    const page = teacherPage;
    await page.goto(`${server.baseUrl}/lecture/created/${classId}`);
    await page.getByRole('heading', { name: '강의가 개설되었어요!' }).waitFor();
    expect(await page.getByRole('timer').textContent()).toMatch(/^[1-5]초 후 강의 소개 페이지로 이동해요\.$/);
    expect(await captureScreen(page, 'journey-class-created')).toEqual([]);
    await page.getByRole('button', { name: '개설한 강의 보러 가기' }).click();
    await page.waitForURL((url) => url.pathname === `/lecture/info/${classId}`);
    await page.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();

    // Without a class id the page says so and offers the classes I opened instead of counting down.
    await page.goto(`${server.baseUrl}/lecture/created`);
    await page.getByRole('heading', { name: '강의가 개설되었어요!' }).waitFor();
    await page.getByRole('alert').filter({ hasText: '개설된 강의 정보를 찾을 수 없어요.' }).waitFor();
    expect(await page.getByRole('timer').count()).toBe(0);
    expect(await page.getByRole('link', { name: '내가 개설한 강의로 가기' }).getAttribute('href')).toBe(
      '/mypage',
    );
    expect(await captureScreen(page, 'journey-class-created-missing-id')).toEqual([]);
  });

  test('a second user signs up, finds the class in /list and by category, and enrols', async () => {
    const page = studentPage;
    await loginThroughDev(page, server.baseUrl, '8102');
    await signUpThroughUi(page, '해마학생');

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.baseUrl}/list`);
    const cards = page.locator('ul[aria-label="전체 강의"] > li');
    await eventually(() => cards.allTextContents()).toEqual([expect.stringContaining(CLASS_NAME)]);
    expect(await captureScreen(page, 'journey-list')).toEqual([]);

    const filter = page.getByRole('group', { name: '카테고리로 강의 찾기' });
    await filter.getByRole('button', { name: '디지털 드로잉' }).click();
    await page.waitForURL(/category=1(&|$)/);
    await page.getByText('아직 강의가 없어요').first().waitFor();
    expect(await cards.count()).toBe(0);
    await filter.getByRole('button', { name: '프로그래밍' }).click();
    await page.waitForURL(/category=13/);
    await eventually(() => cards.allTextContents()).toEqual([expect.stringContaining(CLASS_NAME)]);
    expect(await captureScreen(page, 'journey-list-category')).toEqual([]);

    await cards.first().getByRole('link').first().click();
    await page.waitForURL((url) => url.pathname === `/lecture/info/${classId}`);
    const enroll = page.getByRole('button', { name: '수강 신청하기' });
    await enroll.waitFor();
    await eventually(() => enroll.isEnabled()).toBe(true);
    expect(await captureScreen(page, 'journey-class-info-visitor')).toEqual([]);
    await enroll.click();

    await page.waitForURL((url) => url.pathname === `/enrollment/${classId}`);
    await page.getByRole('heading', { name: '수강 신청이 완료되었어요!' }).waitFor();
    const timer = page.getByRole('timer');
    expect(await timer.textContent()).toMatch(/^[1-5]초 후 학습실로 이동해요\.$/);
    expect(await captureScreen(page, 'journey-enrolled')).toEqual([]);
    // The countdown runs and then moves on to the student dashboard by itself.
    await eventually(() => timer.textContent().catch(() => '')).toMatch(/^[0-4]초 후/);
    await page.waitForURL((url) => url.pathname === `/dashboard/student/${classId}`, { timeout: 15_000 });
    await page.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();
    await page.getByText('첫 수업은 토요일 오전 10시예요.').waitFor();
    expect(await captureScreen(page, 'journey-student-dashboard')).toEqual([]);

    // Without a class id the enrolment page says so and offers the classroom instead of counting down.
    await page.goto(`${server.baseUrl}/enrollment`);
    await page.getByRole('heading', { name: '수강 신청이 완료되었어요!' }).waitFor();
    await page.getByRole('alert').filter({ hasText: '수강 신청한 강의 정보를 찾을 수 없어요.' }).waitFor();
    expect(await page.getByRole('timer').count()).toBe(0);
    expect(await page.getByRole('link', { name: '수강 중인 강의로 가기' }).getAttribute('href')).toBe(
      '/classroom',
    );
    expect(await captureScreen(page, 'journey-enrolled-missing-id')).toEqual([]);
  });

  test('the student sees the class in /classroom and reaches its dashboard from there', async () => {
    const page = studentPage;
    await page.goto(`${server.baseUrl}/classroom`);
    const cards = page.locator('ul[aria-label="내가 수강 중인 강의"] > li');
    await eventually(() => cards.allTextContents()).toEqual([expect.stringContaining(CLASS_NAME)]);
    expect(await captureScreen(page, 'journey-classroom')).toEqual([]);
    await cards.first().getByRole('link').first().click();
    await page.waitForURL((url) => url.pathname === `/dashboard/student/${classId}`);
    await page.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();
  });

  test('the teacher sees the student in the student list', async () => {
    const page = teacherPage;
    await page.goto(`${server.baseUrl}/dashboard/teacher/${classId}`);
    await page.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();
    await page.getByText('수강생 1명').waitFor();
    expect(await captureScreen(page, 'journey-teacher-dashboard')).toEqual([]);
    await page.getByRole('link', { name: '수강생 목록 보기' }).click();
    await page.waitForURL((url) => url.pathname === `/lecture/students/${classId}`);
    const table = page.getByRole('table');
    await table.waitFor();
    await table.getByText('총 1명').waitFor();
    const rows = table.locator('tbody tr');
    await eventually(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('해마학생');
    expect(await captureScreen(page, 'journey-students')).toEqual([]);
  });

  test('the live rooms ask before leaving: the header exit and the teacher ending the lecture', async () => {
    // The rooms' frames and dialogs need no media service (the live journey covers the media); the student's
    // room wants a live class.
    await new ApiClient(server.baseUrl, await storedTokens(teacherPage)).setLive(classId, true);
    await teacherPage.goto(`${server.baseUrl}/live/teacher/${classId}`);
    await teacherPage.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();
    await studentPage.goto(`${server.baseUrl}/live/student/${classId}`);
    await studentPage.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();

    const exit = studentPage.locator('header').getByRole('button', { name: '강의에서 나가기' });
    await exit.click();
    let dialog = studentPage.getByRole('alertdialog', { name: '강의에서 나가시겠어요?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('강의가 아직 진행 중이에요.');
    expect(await captureScreen(studentPage, 'journey-live-exit-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: '취소' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(studentPage.url()).pathname).toBe(`/live/student/${classId}`);
    await exit.click();
    dialog = studentPage.getByRole('alertdialog', { name: '강의에서 나가시겠어요?' });
    await dialog.getByRole('button', { name: '나가기', exact: true }).click();
    await studentPage.waitForURL((url) => url.pathname === `/dashboard/student/${classId}`);

    await teacherPage.locator('#main').getByRole('button', { name: '강의실 나가기' }).click();
    const end = teacherPage.getByRole('alertdialog', { name: '강의를 종료할까요?' });
    await end.waitFor();
    expect(await captureScreen(teacherPage, 'journey-live-end-dialog')).toEqual([]);
    await end.getByRole('button', { name: '강의 종료' }).click();
    await teacherPage.waitForURL((url) => url.pathname === `/dashboard/teacher/${classId}`);
    await teacherPage.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();
  });

  test('the teacher edits the class and the dashboard shows the new name', async () => {
    const page = teacherPage;
    await page.goto(`${server.baseUrl}/dashboard/teacher/${classId}`);
    await page.getByRole('button', { name: '정보 수정' }).click();
    await page.waitForURL((url) => url.pathname === `/dashboard/edit/${classId}`);
    const title = page.getByLabel(/강의 제목/);
    await eventually(() => title.inputValue()).toBe(CLASS_NAME);
    expect(await captureScreen(page, 'journey-edit')).toEqual([]);
    await title.fill(NEW_NAME);
    await page.getByRole('button', { name: '수정 완료' }).click();
    await expectNotice(page, '수정이 완료되었어요.');
    await page.waitForURL((url) => url.pathname === `/dashboard/teacher/${classId}`);
    await page.getByRole('heading', { name: NEW_NAME, level: 1 }).waitFor();
  });

  test('the teacher deletes the class after confirming and it is gone from /list', async () => {
    const page = teacherPage;
    await page.getByRole('button', { name: '강의 삭제' }).click();
    const dialog = page.getByRole('alertdialog', { name: '이 강의를 삭제하시겠어요?' });
    await dialog.waitFor();
    expect(await captureScreen(page, 'journey-delete-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: '삭제', exact: true }).click();
    await expectNotice(page, '강의가 삭제되었어요.');
    await page.waitForURL((url) => url.pathname === '/mypage');

    await page.goto(`${server.baseUrl}/list`);
    await page.getByText('아직 강의가 없어요').first().waitFor();
    expect(await page.locator('ul[aria-label="전체 강의"] > li').count()).toBe(0);
    expect(await page.getByText(NEW_NAME).count()).toBe(0);
    expect(await captureScreen(page, 'journey-list-empty')).toEqual([]);
  });

  test('the student changes the nickname on /edit-info', async () => {
    const page = studentPage;
    await page.goto(`${server.baseUrl}/edit-info`);
    await page.getByRole('heading', { name: '프로필 설정' }).waitFor();
    const nickname = page.getByLabel(/닉네임/);
    await eventually(() => nickname.inputValue()).toBe('해마학생');
    expect(await captureScreen(page, 'journey-edit-info')).toEqual([]);
    await nickname.fill('거북학생');
    await page.getByRole('button', { name: '저장', exact: true }).click();
    await expectNotice(page, '프로필을 저장했어요.');
    // The saved nickname comes back from the server after a reload.
    await page.reload();
    await eventually(() => page.getByLabel(/닉네임/).inputValue()).toBe('거북학생');
  });

  test('the student withdraws after confirming, is told so and is logged out', async () => {
    const page = studentPage;
    await page.getByRole('button', { name: '회원 탈퇴' }).click();
    const dialog = page.getByRole('alertdialog', { name: '탈퇴하시겠어요?' });
    await dialog.waitFor();
    expect(await captureScreen(page, 'journey-withdraw-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: '탈퇴하기' }).click();
    await expectNotice(page, '계정 삭제가 완료되었어요.');
    await page.waitForURL((url) => url.pathname === '/');
    await eventually(() => page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    // The page left in place shows the logged-out header and stays home (the private page being left does
    // not send the visitor to /login), and so does a fresh load of the home page.
    await page.getByRole('link', { name: '로그인' }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('link', { name: '내 강의실' }).count()).toBe(0);
    expect(await captureScreen(page, 'journey-withdrawn')).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('link', { name: '로그인' }).first().waitFor();
    expect(await page.getByRole('link', { name: '내 강의실' }).count()).toBe(0);
    // The account is gone: logging in with the same identity starts a new sign-up.
    await loginThroughDev(page, server.baseUrl, '8102');
    expect(new URL(page.url()).pathname).toBe('/sign-info');
  });
});
