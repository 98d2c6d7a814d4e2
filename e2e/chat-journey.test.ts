/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loginThroughDev, signUpThroughUi, storedTokens } from './harness/accounts.ts';
import { ApiClient } from './harness/api.ts';
import { chromiumAvailable, launchChromium } from '../harness/chromium.ts';
import type { JourneyBrowser } from '../harness/chromium.ts';
import { eventually } from './harness/poll.ts';
import { captureScreen } from './harness/screens.ts';
import type { AxeViolation } from './harness/screens.ts';
import { startServer } from '../harness/server-process.ts';
import type { RunningServer } from '../harness/server-process.ts';
import { buildWebOnce } from '../harness/web-build.ts';

const PROGRAMMING = 13;
const FROM_STUDENT = '안녕하세요, 선생님! 오늘 수업 기대돼요.';
const FROM_TEACHER = '반가워요 해마학생님, 곧 시작할게요.';

/** The chat panel of a live room (the side area around it carries the same name but is not a region). */
function chatOf(page: Page): Locator {
  return page.getByRole('region', { name: '채팅', exact: true });
}

/** The text of every message in the panel, in order. */
function messagesOf(page: Page): Promise<string[]> {
  return chatOf(page)
    .getByRole('list', { name: '채팅 메시지' })
    .locator('li:not([data-day])')
    .allTextContents();
}

/** Waits for the panel to say it is connected, then sends `text` with Enter. */
async function sendWithEnter(page: Page, text: string): Promise<void> {
  const chat = chatOf(page);
  await chat.getByRole('status').filter({ hasText: '연결됨' }).waitFor({ timeout: 15_000 });
  const box = chat.getByRole('textbox', { name: '보낼 메시지' });
  await box.fill(text);
  await box.press('Enter');
  // Sent: the box is emptied for the next message.
  await eventually(() => box.inputValue()).toBe('');
}

/** axe's findings on a live room (also saved as screenshots at both widths). */
function roomViolations(page: Page, name: string): Promise<AxeViolation[]> {
  return captureScreen(page, name);
}

/**
 * Issue 4's journey: a teacher and an enrolled student, each in their own browser profile, chat both ways
 * in their live rooms; the student's page reloads and shows the history. The media service is not running
 * here, so only the chat is checked.
 */
describe.skipIf(!chromiumAvailable())('chat journey', { timeout: 90_000 }, () => {
  let server: RunningServer;
  let teacherBrowser: JourneyBrowser;
  let studentBrowser: JourneyBrowser;
  let teacherPage: Page;
  let studentPage: Page;
  let classId = 0;

  beforeAll(async () => {
    const dist = buildWebOnce();
    server = await startServer(dist);
    teacherBrowser = await launchChromium();
    studentBrowser = await launchChromium();
    teacherPage = await teacherBrowser.newPage();
    studentPage = await studentBrowser.newPage();

    await loginThroughDev(teacherPage, server.baseUrl, '8301');
    await signUpThroughUi(teacherPage, '고래선생');
    await loginThroughDev(studentPage, server.baseUrl, '8302');
    await signUpThroughUi(studentPage, '해마학생');
    const teacher = new ApiClient(server.baseUrl, await storedTokens(teacherPage));
    const student = new ApiClient(server.baseUrl, await storedTokens(studentPage));
    classId = await teacher.createClass({ categoryId: PROGRAMMING, name: '실시간 타입스크립트' });
    await student.enroll(classId);
    // The student's room needs a live class.
    await teacher.setLive(classId, true);
  }, 240_000);

  afterAll(async () => {
    await teacherBrowser?.close();
    await studentBrowser?.close();
    await server?.stop();
  });

  test('teacher and student open their live rooms and the chat connects', async () => {
    await teacherPage.goto(`${server.baseUrl}/live/teacher/${classId}`);
    await teacherPage.getByRole('heading', { name: '실시간 타입스크립트', level: 1 }).waitFor();
    await studentPage.goto(`${server.baseUrl}/live/student/${classId}`);
    await studentPage.getByRole('heading', { name: '실시간 타입스크립트', level: 1 }).waitFor();
    for (const page of [teacherPage, studentPage]) {
      await chatOf(page).getByRole('status').filter({ hasText: '연결됨' }).waitFor({ timeout: 15_000 });
      await chatOf(page).getByText('아직 메시지가 없어요. 먼저 인사를 건네 보세요!').waitFor();
    }
    expect(await roomViolations(teacherPage, 'chat-teacher-room')).toEqual([]);
    expect(await roomViolations(studentPage, 'chat-student-room')).toEqual([]);
  });

  test('a student message reaches the teacher and a teacher message reaches the student', async () => {
    await sendWithEnter(studentPage, FROM_STUDENT);
    await eventually(() => messagesOf(teacherPage)).toEqual([expect.stringContaining(FROM_STUDENT)]);
    expect((await messagesOf(teacherPage))[0]).toContain('해마학생');
    // The student's own message is marked as theirs.
    await eventually(() => messagesOf(studentPage)).toEqual([expect.stringContaining(FROM_STUDENT)]);
    expect((await messagesOf(studentPage))[0]).toContain('내 메시지');

    // Shift+Enter starts a new line instead of sending.
    const box = chatOf(studentPage).getByRole('textbox', { name: '보낼 메시지' });
    await box.fill('첫 줄');
    await box.press('Shift+Enter');
    await box.pressSequentially('둘째 줄');
    expect(await box.inputValue()).toBe('첫 줄\n둘째 줄');
    expect(await messagesOf(studentPage)).toHaveLength(1);
    await box.fill('');

    await sendWithEnter(teacherPage, FROM_TEACHER);
    await eventually(() => messagesOf(studentPage)).toEqual([
      expect.stringContaining(FROM_STUDENT),
      expect.stringContaining(FROM_TEACHER),
    ]);
    expect((await messagesOf(studentPage))[1]).toContain('고래선생');
    await eventually(() => messagesOf(teacherPage)).toHaveLength(2);
    expect(await roomViolations(studentPage, 'chat-student-messages')).toEqual([]);
  });

  test("the student's page reloads and shows the history", async () => {
    await studentPage.reload();
    await studentPage.getByRole('heading', { name: '실시간 타입스크립트', level: 1 }).waitFor();
    await eventually(() => messagesOf(studentPage)).toEqual([
      expect.stringContaining(FROM_STUDENT),
      expect.stringContaining(FROM_TEACHER),
    ]);
    await chatOf(studentPage).getByRole('status').filter({ hasText: '연결됨' }).waitFor();
    expect(await roomViolations(studentPage, 'chat-student-history')).toEqual([]);
    // Still live after the reload: a new message arrives once, after the history.
    await sendWithEnter(teacherPage, '다시 오셨네요!');
    await eventually(() => messagesOf(studentPage)).toEqual([
      expect.stringContaining(FROM_STUDENT),
      expect.stringContaining(FROM_TEACHER),
      expect.stringContaining('다시 오셨네요!'),
    ]);
  });
});
