/// <reference lib="dom" />
import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MEDIA_NODE_REPORT_INTERVAL_MS } from '@sea/contract/media-nodes';
import { loginThroughDev, signUpThroughUi, storedTokens } from './harness/accounts.ts';
import { ApiClient } from './harness/api.ts';
import { chromiumAvailable, launchChromium } from '../harness/chromium.ts';
import type { JourneyBrowser } from '../harness/chromium.ts';
import { eventually } from './harness/poll.ts';
import { FakeMediaNode } from './harness/fake-media-node.ts';
import { captureScreen } from './harness/screens.ts';
import { startServer } from '../harness/server-process.ts';
import type { RunningServer } from '../harness/server-process.ts';
import { buildWebOnce } from '../harness/web-build.ts';

const PROGRAMMING = 13;
const MEDIA_SECRET = randomBytes(32).toString('hex');

/** The side panel of a live room. */
function panelOf(page: Page): Locator {
  return page.getByRole('region', { name: '채팅', exact: true });
}

async function openTab(page: Page, name: RegExp): Promise<void> {
  await panelOf(page).getByRole('tab', { name }).click();
}

function questionsOf(page: Page): Promise<string[]> {
  return panelOf(page).getByRole('list', { name: '질문 목록' }).locator('> li').allTextContents();
}

function messagesOf(page: Page): Promise<string[]> {
  return panelOf(page)
    .getByRole('list', { name: '채팅 메시지' })
    .locator('li:not([data-day])')
    .allTextContents();
}

/**
 * Issue 17's journey without speaking (that one needs a real media service: speaking-journey.test.ts, in the
 * live project): a teacher and two students in their live rooms. A question asked and
 * upvoted reaches the teacher sorted by votes; a poll answered by both shows the right counts; a message the
 * teacher deletes disappears for everyone.
 */
describe.skipIf(!chromiumAvailable())('classroom journey', { timeout: 120_000 }, () => {
  let server: RunningServer;
  const browsers: JourneyBrowser[] = [];
  let teacherPage: Page;
  let firstPage: Page;
  let secondPage: Page;
  let classId = 0;
  let reports: ReturnType<typeof setInterval> | undefined;

  beforeAll(async () => {
    server = await startServer(buildWebOnce(), { env: { MEDIA_SECRET } });
    const pages: Page[] = [];
    for (const [code, nickname] of [
      ['8401', '고래선생'],
      ['8402', '해마학생'],
      ['8403', '문어학생'],
    ] as const) {
      const browser = await launchChromium();
      browsers.push(browser);
      const page = await browser.newPage();
      await loginThroughDev(page, server.baseUrl, code);
      await signUpThroughUi(page, nickname);
      pages.push(page);
    }
    [teacherPage, firstPage, secondPage] = pages as [Page, Page, Page];
    const teacher = new ApiClient(server.baseUrl, await storedTokens(teacherPage));
    classId = await teacher.createClass({ categoryId: PROGRAMMING, name: '실시간 교실' });
    for (const page of [firstPage, secondPage]) {
      await new ApiClient(server.baseUrl, await storedTokens(page)).enroll(classId);
    }
    await teacher.setLive(classId, true);
    const node = new FakeMediaNode(server.baseUrl, classId, MEDIA_SECRET);
    await node.report();
    reports = setInterval(() => void node.report().catch(() => undefined), MEDIA_NODE_REPORT_INTERVAL_MS);

    await teacherPage.goto(`${server.baseUrl}/live/teacher/${classId}`);
    await firstPage.goto(`${server.baseUrl}/live/student/${classId}`);
    await secondPage.goto(`${server.baseUrl}/live/student/${classId}`);
    for (const page of [teacherPage, firstPage, secondPage]) {
      await panelOf(page).getByRole('status').filter({ hasText: '연결됨' }).waitFor({ timeout: 20_000 });
    }
  }, 240_000);

  afterAll(async () => {
    if (reports) clearInterval(reports);
    for (const browser of browsers) await browser.close();
    await server?.stop();
  });

  test('a question asked and upvoted reaches the teacher sorted by votes, anonymous to the other student', async () => {
    await openTab(firstPage, /^질문/);
    const box = panelOf(firstPage).getByRole('textbox', { name: '질문 내용' });
    await box.fill('먼저 올린 질문');
    await panelOf(firstPage).getByRole('button', { name: '질문하기' }).click();
    await eventually(() => questionsOf(firstPage)).toHaveLength(1);
    await box.fill('추천받을 익명 질문');
    await panelOf(firstPage).getByRole('checkbox', { name: '다른 수강생에게 이름 숨기기' }).check();
    await panelOf(firstPage).getByRole('button', { name: '질문하기' }).click();

    await openTab(secondPage, /^질문/);
    await eventually(() => questionsOf(secondPage)).toHaveLength(2);
    const anonymous = panelOf(secondPage).getByRole('listitem').filter({ hasText: '추천받을 익명 질문' });
    await expect(anonymous.textContent()).resolves.toContain('익명');
    await expect(anonymous.textContent()).resolves.not.toContain('해마학생');
    await anonymous.getByRole('button', { name: '추천 0', pressed: false }).click();

    await openTab(teacherPage, /^질문/);
    await eventually(async () => (await questionsOf(teacherPage)).map((text) => text.slice(0, 40))).toEqual([
      expect.stringContaining('추천받을 익명 질문'),
      expect.stringContaining('먼저 올린 질문'),
    ]);
    const top = (await questionsOf(teacherPage))[0] ?? '';
    // The teacher sees who asked, and the vote.
    expect(top).toContain('해마학생');
    expect(top).toContain('추천 1');
    expect(await captureScreen(teacherPage, 'classroom-teacher-questions')).toEqual([]);
    expect(await captureScreen(secondPage, 'classroom-student-questions')).toEqual([]);
  });

  test('a poll answered by both students shows the right counts', async () => {
    await openTab(teacherPage, /^투표/);
    await panelOf(teacherPage).getByRole('textbox', { name: '투표 질문' }).fill('오늘 수업 어땠나요?');
    await panelOf(teacherPage)
      .getByRole('textbox', { name: '보기 (한 줄에 하나, 2~6개)' })
      .fill('좋아요\n어려워요\n보통이에요');
    await panelOf(teacherPage).getByRole('button', { name: '투표 시작' }).click();

    for (const [page, answer] of [
      [firstPage, '좋아요'],
      [secondPage, '좋아요'],
    ] as const) {
      await openTab(page, /^투표/);
      const card = panelOf(page).getByRole('listitem', { name: '오늘 수업 어땠나요?' });
      await card.getByRole('radio', { name: answer }).check();
      await card.getByRole('button', { name: '답하기' }).click();
      await card.getByText('강사가 결과를 공개하면 볼 수 있어요.').waitFor();
    }
    const card = panelOf(teacherPage).getByRole('listitem', { name: '오늘 수업 어땠나요?' });
    await eventually(() => card.getByText(/명 참여/).textContent()).toBe('2명 참여');
    const counts = await card.locator('[data-testid^="poll-"]').allTextContents();
    expect(counts).toEqual(['2표', '0표', '0표']);

    expect(await captureScreen(teacherPage, 'classroom-teacher-poll')).toEqual([]);
    await card.getByRole('button', { name: '마감하고 결과 공개' }).click();
    const studentCard = panelOf(secondPage).getByRole('listitem', { name: '오늘 수업 어땠나요?' });
    await eventually(() => studentCard.locator('[data-testid^="poll-"]').allTextContents()).toEqual([
      '2표',
      '0표',
      '0표',
    ]);
  });

  test('a message the teacher deletes disappears for everyone', async () => {
    for (const page of [teacherPage, firstPage, secondPage]) await openTab(page, /^채팅/);
    const box = panelOf(firstPage).getByRole('textbox', { name: '보낼 메시지' });
    await box.fill('지워질 메시지');
    await box.press('Enter');
    await box.fill('남을 메시지');
    await box.press('Enter');
    for (const page of [teacherPage, firstPage, secondPage]) {
      await eventually(() => messagesOf(page)).toHaveLength(2);
    }
    const doomed = panelOf(teacherPage).getByRole('listitem').filter({ hasText: '지워질 메시지' });
    await doomed.getByRole('button', { name: '메시지 삭제' }).click();
    for (const page of [teacherPage, firstPage, secondPage]) {
      await eventually(() => messagesOf(page)).toEqual([expect.stringContaining('남을 메시지')]);
    }
    // Gone from the history too: a reload does not bring it back.
    await secondPage.reload();
    await panelOf(secondPage).getByRole('status').filter({ hasText: '연결됨' }).waitFor({ timeout: 20_000 });
    await eventually(() => messagesOf(secondPage)).toEqual([expect.stringContaining('남을 메시지')]);
  });
});
