/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loginThroughDev, signUpThroughUi, storedTokens } from './harness/accounts.ts';
import { ApiClient } from './harness/api.ts';
import { chromiumAvailable, launchChromium } from '../harness/chromium.ts';
import type { JourneyBrowser } from '../harness/chromium.ts';
import { eventually } from './harness/poll.ts';
import { CHAT, ffmpegAvailable, REPLAY_S, seedSessions, writeReplay } from './harness/replay-sessions.ts';
import { captureScreen } from './harness/screens.ts';
import { startServer } from '../harness/server-process.ts';
import type { RunningServer } from '../harness/server-process.ts';
import { buildWebOnce } from '../harness/web-build.ts';

const PROGRAMMING = 13;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The state of the replay page's video element. */
function videoState(page: Page) {
  return page.evaluate(() => {
    const video = document.querySelector('video');
    if (video === null) return null;
    return {
      currentTime: video.currentTime,
      duration: video.duration,
      paused: video.paused,
      frames: video.getVideoPlaybackQuality().totalVideoFrames,
      width: video.videoWidth,
    };
  });
}

/**
 * The replay pages in Chromium over the real server: both dashboards list the class's sessions in every
 * state and the attendance, and the replay page plays a real HLS replay through hls.js and media-chrome with
 * the session's chat appearing at its moments. Sessions are written into the database between two runs of the
 * server (no media service here; the recording and processing have journeys of their own).
 */
describe.skipIf(!chromiumAvailable() || !ffmpegAvailable())('replay pages', { timeout: 120_000 }, () => {
  let server: RunningServer | undefined;
  let teacherBrowser: JourneyBrowser;
  let studentBrowser: JourneyBrowser;
  let teacherPage: Page;
  let studentPage: Page;
  let classId = 0;
  let readyId = 0;
  /** Where the student paused the replay last. */
  let pausedAtS = 0;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-e2e-replays-'));

  beforeAll(async () => {
    const dist = buildWebOnce();
    // Both runs of the server on one origin and data folder, so the pages keep their logins (local storage,
    // the kept JWT secret) across them.
    server = await startServer(dist, { dataDir });
    teacherBrowser = await launchChromium();
    studentBrowser = await launchChromium();
    teacherPage = await teacherBrowser.newPage();
    studentPage = await studentBrowser.newPage();
    await loginThroughDev(teacherPage, server.baseUrl, '8501');
    await signUpThroughUi(teacherPage, '고래선생');
    await loginThroughDev(studentPage, server.baseUrl, '8502');
    await signUpThroughUi(studentPage, '해달학생');
    const teacher = new ApiClient(server.baseUrl, await storedTokens(teacherPage));
    const student = new ApiClient(server.baseUrl, await storedTokens(studentPage));
    classId = await teacher.createClass({ categoryId: PROGRAMMING, name: '바다에서 읽는 파도' }, true);
    await student.enroll(classId);
    const classmateBrowser = await launchChromium();
    try {
      const page = await classmateBrowser.newPage();
      await loginThroughDev(page, server.baseUrl, '8503');
      await signUpThroughUi(page, '물범학생');
      await new ApiClient(server.baseUrl, await storedTokens(page)).enroll(classId);
      // A classmate who enrols and never comes: 결석 in the 출석부.
      await page.evaluate(() => localStorage.clear());
      await loginThroughDev(page, server.baseUrl, '8504');
      await signUpThroughUi(page, '바다표범학생');
      await new ApiClient(server.baseUrl, await storedTokens(page)).enroll(classId);
    } finally {
      await classmateBrowser.close();
    }

    await server.stop();
    ({ readyId } = await seedSessions(dataDir, classId));
    writeReplay(path.join(dataDir, 'replays'), readyId);
    // No job worker: the processing session's job stays queued, as on a busy server.
    const port = Number(new URL(server.baseUrl).port);
    server = await startServer(dist, { dataDir, port, env: { JOB_CONCURRENCY: '0' } });
  }, 300_000);

  afterAll(async () => {
    await teacherBrowser?.close();
    await studentBrowser?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("the teacher's dashboard lists every session and the attendance", async () => {
    const base = server?.baseUrl ?? '';
    await teacherPage.goto(`${base}/dashboard/teacher/${classId}`);
    const replays = teacherPage.getByRole('region', { name: '다시보기', exact: true });
    await eventually(() => replays.getByRole('listitem').count()).toBe(5);
    await replays.getByText('처리 중 42%').waitFor();
    await replays.getByText('처리 실패').waitFor();
    await replays.getByText('녹화 파일을 찾을 수 없어 다시보기를 만들 수 없어요.').waitFor();
    await replays.getByText('녹화 안 함').waitFor();
    await replays.getByText('숨김', { exact: true }).waitFor();
    await replays.getByRole('link', { name: '파도 읽기 1강 다시보기' }).waitFor();
    const attendance = teacherPage.getByRole('table', { name: /^파도 읽기 1강 · 출석 \d+명/ });
    await attendance.getByRole('row', { name: /해달학생 (출석|지각) 2회/ }).waitFor();
    await attendance.getByRole('row', { name: /물범학생 (출석|지각) 1회 .* 10분/ }).waitFor();
    expect(await captureScreen(teacherPage, 'replays-teacher-dashboard')).toEqual([]);
    // The 출석부 as a file: a Korean name, each session's title, and a student who missed a session as 결석.
    const [file] = await Promise.all([
      teacherPage.waitForEvent('download'),
      teacherPage.getByRole('button', { name: '출석부 CSV 내려받기' }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^바다에서 읽는 파도_출석부_\d{4}-\d{2}-\d{2}\.csv$/);
    let csv = '';
    for await (const chunk of await file.createReadStream()) csv += String(chunk);
    expect(csv).toContain('파도 읽기 1강');
    expect(
      csv.split('\n').filter((line) => line.includes('바다표범학생') && line.includes('결석')),
    ).not.toEqual([]);
  });

  test("a student's dashboard lists the replays they may see and their own record", async () => {
    const base = server?.baseUrl ?? '';
    await studentPage.goto(`${base}/dashboard/student/${classId}`);
    const replays = studentPage.getByRole('region', { name: '다시보기', exact: true });
    await eventually(() => replays.getByRole('listitem').count()).toBe(4);
    await eventually(() => replays.getByText('숨겨 둔 연습 강의').count()).toBe(0);
    await eventually(() => replays.getByRole('button').count()).toBe(0);
    const mine = studentPage.getByRole('table', { name: '내 출석 기록' });
    await mine.getByRole('row', { name: /파도 읽기 1강 (출석|지각) 2회/ }).waitFor();
    expect(await captureScreen(studentPage, 'replays-student-dashboard')).toEqual([]);
  });

  test('the replay plays with seeking, and the chat appears at its moments', async () => {
    await studentPage.getByRole('link', { name: '파도 읽기 1강 다시보기' }).click();
    await studentPage.waitForURL(
      (url) => url.pathname === `/dashboard/student/${classId}/replays/${readyId}`,
    );
    await studentPage.getByRole('heading', { level: 1, name: '파도 읽기 1강' }).waitFor();
    const download = studentPage.getByRole('link', { name: 'MP4 내려받기' });
    const href = (await download.getAttribute('href')) ?? '';
    const mp4 = await fetch(new URL(href, server?.baseUrl));
    expect(mp4.status).toBe(200);
    expect(mp4.headers.get('content-type')).toContain('video/mp4');

    await eventually(async () => (await videoState(studentPage))?.duration ?? 0).toBeGreaterThan(
      REPLAY_S - 1,
    );
    const chat = studentPage.getByRole('region', { name: '채팅', exact: true });
    await chat.getByText('이 시점까지 채팅이 없어요.').waitFor();

    // Play (muted: no user gesture in a headless run) from just before the first message.
    await studentPage.evaluate(async () => {
      const video = document.querySelector('video');
      if (video === null) throw new Error('no video');
      video.muted = true;
      video.currentTime = 2;
      await video.play();
    });
    await chat.getByText(CHAT[0]?.content ?? '').waitFor({ timeout: 10_000 });
    await eventually(() => chat.getByText(CHAT[1]?.content ?? '').count()).toBe(0);
    const playing = await videoState(studentPage);
    expect(playing?.frames).toBeGreaterThan(0);
    expect(playing?.width).toBe(1280);

    // Seeking with the player's own control: the rate button steps through 0.5x-2x.
    const rate = studentPage.locator('media-playback-rate-button');
    await rate.click();
    await eventually(() => studentPage.evaluate(() => document.querySelector('video')?.playbackRate)).toBe(
      1.25,
    );

    await studentPage.evaluate(() => {
      const video = document.querySelector('video');
      if (video !== null) video.currentTime = 16;
    });
    await chat.getByText(CHAT[2]?.content ?? '').waitFor({ timeout: 10_000 });
    await chat
      .getByRole('button', { name: new RegExp(`${escapeRegExp(CHAT[1]?.content ?? '')}.*0:09로 이동`) })
      .click();
    await eventually(async () =>
      Math.floor((await videoState(studentPage))?.currentTime ?? 0),
    ).toBeGreaterThanOrEqual(9);
    await eventually(() => chat.getByText(CHAT[2]?.content ?? '').count()).toBe(0);
    // media-chrome's hotkeys, from a control that has focus: k plays and pauses.
    await studentPage.evaluate(() => {
      const video = document.querySelector('video');
      if (video === null) return;
      video.pause();
      video.currentTime = 5;
    });
    await studentPage.locator('media-play-button').focus();
    await studentPage.keyboard.press('k');
    await eventually(async () => (await videoState(studentPage))?.paused).toBe(false);
    await studentPage.keyboard.press('k');
    await eventually(async () => (await videoState(studentPage))?.paused).toBe(true);
    pausedAtS = (await videoState(studentPage))?.currentTime ?? 0;
    expect(pausedAtS).toBeGreaterThan(5);
    // The focused button shows media-chrome's tooltip, whose text axe reads as the button's visible text.
    await studentPage.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(await captureScreen(studentPage, 'replays-replay-page')).toEqual([]);
  });

  test('watching counts, and the replay resumes where the student left off', async () => {
    const base = server?.baseUrl ?? '';
    const tokens = await storedTokens(studentPage);
    const detail = async () => {
      const response = await fetch(`${base}/api/classes/${classId}/sessions/${readyId}`, {
        headers: { Authorization: `Bearer ${tokens.accessToken}` },
      });
      return ((await response.json()) as { data: { resume_s: number } }).data;
    };
    const record = await fetch(`${base}/api/classes/${classId}/attendance`, {
      headers: { Authorization: `Bearer ${tokens.accessToken}` },
    });
    const rows = (
      (await record.json()) as { data: { rows: { session_id: number; replay_watch_s: number }[] } }
    ).data.rows;
    // The student played a few seconds in all; the beats credited them (and never more than the wall clock).
    const watched = rows.find((row) => row.session_id === readyId)?.replay_watch_s ?? 0;
    expect(watched).toBeGreaterThan(0);
    expect(watched).toBeLessThan(60);
    // The pause's beat saved where the video stopped (to a tenth of a second).
    await eventually(async () => Math.abs((await detail()).resume_s - pausedAtS)).toBeLessThan(0.2);
    await studentPage.reload();
    await eventually(async () =>
      Math.abs(((await videoState(studentPage))?.currentTime ?? 0) - pausedAtS),
    ).toBeLessThan(0.5);
  });
});
