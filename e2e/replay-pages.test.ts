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
import {
  CHAPTERS,
  CHAT,
  copyReplay,
  ffmpegAvailable,
  REPLAY_S,
  GAP,
  seedSessions,
  writeReplay,
} from './harness/replay-sessions.ts';
import { captureScreen, seriousViolations } from './harness/screens.ts';
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

/** What the student writes in the second replay, in order. */
const NOTES = ['여기 시험에 나옴', '파도 높이 공식은\n다시 보기'];

/** `m:ss` (the player's clock) as seconds. */
function clockSeconds(clock: string): number {
  const [minutes = '', seconds = ''] = clock.split(':');
  return Number(minutes) * 60 + Number(seconds);
}

/**
 * Plays the replay with the player's own button until it reaches `untilS`, then pauses it with the same
 * button (as a viewer does: the page's watch beats go out on play, every 5 s and on pause). Answers where it
 * stopped.
 */
async function playUntil(page: Page, untilS: number): Promise<number> {
  const button = page.locator('media-play-button');
  await button.click();
  await eventually(async () => (await videoState(page))?.paused).toBe(false);
  await expect
    .poll(async () => (await videoState(page))?.currentTime ?? 0, { timeout: 30_000, interval: 100 })
    .toBeGreaterThanOrEqual(untilS);
  await button.click();
  await eventually(async () => (await videoState(page))?.paused).toBe(true);
  return (await videoState(page))?.currentTime ?? 0;
}

/** Writes a note at the player's time in the page's '내 메모' and waits until the list shows it. */
async function writeNote(page: Page, content: string): Promise<void> {
  const notes = page.getByRole('region', { name: '내 메모' });
  await notes.getByRole('textbox', { name: '메모 내용' }).fill(content);
  await notes.getByRole('button', { name: /에 메모 남기기$/ }).click();
  await notes.getByText(content.split('\n')[0] ?? '').waitFor();
}

/**
 * The replay pages in Chromium over the real server: both dashboards list the class's sessions in every
 * state and the attendance, and the replay page plays a real HLS replay through hls.js and media-chrome with
 * the session's chat appearing at its moments; a student studies two replays (notes, 진도율, '이어보기',
 * chapters, the notes file) and the teacher sees their progress. Sessions are written into the database between two runs of the
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
  let secondId = 0;
  /** Where the student paused the replay last. */
  let pausedAtS = 0;
  /** The class's 진도율 the student's dashboard showed. */
  let classPercent = -1;
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
    ({ readyId, secondId } = await seedSessions(dataDir, classId));
    writeReplay(path.join(dataDir, 'replays'), readyId);
    copyReplay(path.join(dataDir, 'replays'), readyId, secondId);
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
    await eventually(() => replays.getByRole('listitem').count()).toBe(6);
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
    await eventually(() => replays.getByRole('listitem').count()).toBe(5);
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
    // The recording's gap: said under the title, and marked under the seek bar where the replay cuts it
    // (17 s of 20), at both widths.
    await studentPage.getByText(/녹화되지 않은 구간: 0:17-0:21/).waitFor();
    const marks = studentPage.getByRole('list', { name: '재생 막대의 녹화되지 않은 구간' });
    const mark = marks.getByRole('listitem');
    expect(await mark.getAttribute('title')).toBe('녹화되지 않은 구간 0:17-0:21');
    const viewport = studentPage.viewportSize();
    for (const width of [400, 1280]) {
      await studentPage.setViewportSize({ width, height: 900 });
      const strip = await marks.boundingBox();
      const box = await mark.boundingBox();
      if (strip === null || box === null) throw new Error(`the gap's mark is not shown at ${width} px`);
      expect(box.width).toBeGreaterThan(0);
      const at = (box.x + box.width / 2 - strip.x) / strip.width;
      expect(Math.abs(at - GAP.fromS / REPLAY_S), `at ${width} px`).toBeLessThan(0.02);
    }
    if (viewport !== null) await studentPage.setViewportSize(viewport);
    // A focused or hovered button shows media-chrome's tooltip, whose text axe reads as the button's visible
    // text while it is not fully transparent; it fades out for 0.3 s after the button loses focus. axe run
    // at once after the blur must not read the fading tooltip (CI's fresh clones failed on it at 400 px):
    // the harness waits for running transitions, shadow trees included.
    await studentPage.setViewportSize({ width: 400, height: 900 });
    await studentPage.locator('media-play-button').focus();
    await studentPage.keyboard.press('Shift');
    await eventually(() =>
      studentPage.evaluate(() => {
        const tooltip = document
          .querySelector('media-play-button')
          ?.shadowRoot?.querySelector('media-tooltip');
        return tooltip ? getComputedStyle(tooltip).opacity : null;
      }),
    ).toBe('1');
    await studentPage.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await studentPage.mouse.move(0, 0);
    expect(await seriousViolations(studentPage)).toEqual([]);
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

  test("a student studies two replays: notes, 진도율, '이어보기', chapters and the notes file", async () => {
    const base = server?.baseUrl ?? '';
    const secondPath = `/dashboard/student/${classId}/replays/${secondId}`;
    await studentPage.goto(`${base}/dashboard/student/${classId}`);
    await studentPage.getByRole('link', { name: '파도 읽기 2강 다시보기' }).click();
    await studentPage.waitForURL((url) => url.pathname === secondPath);
    await eventually(async () => (await videoState(studentPage))?.duration ?? 0).toBeGreaterThan(
      REPLAY_S - 1,
    );
    // Part of the second replay, with a note at each stop (the first replay was watched in part above).
    const firstNoteS = await playUntil(studentPage, 2);
    await writeNote(studentPage, NOTES[0] ?? '');
    const stoppedAtS = await playUntil(studentPage, 5);
    await writeNote(studentPage, NOTES[1] ?? '');
    const notes = studentPage.getByRole('region', { name: '내 메모' });
    const seekButtons = notes.getByRole('button', { name: /^\d+:\d\d로 이동$/ });
    await eventually(() => seekButtons.count()).toBe(2);
    const clocks = (await seekButtons.evaluateAll((buttons) => buttons.map((b) => b.textContent ?? ''))).map(
      (text) => text.trim(),
    );
    // Each note is pinned where the video stood when it was written.
    expect(Math.abs(clockSeconds(clocks[0] ?? '') - firstNoteS)).toBeLessThan(1);
    expect(Math.abs(clockSeconds(clocks[1] ?? '') - stoppedAtS)).toBeLessThan(1);

    // Leaving for the dashboard: the replays' bars and the class's, and '이어보기' names the second replay.
    await studentPage.goto(`${base}/dashboard/student/${classId}`);
    const progress = studentPage.getByRole('region', { name: '진도율', exact: true });
    const percentOf = async (name: string) =>
      Number(await progress.getByRole('progressbar', { name }).getAttribute('aria-valuenow'));
    // Each second of the 20 s video counts once: 0 to where it stopped, give or take a beat's rounding.
    await eventually(() => percentOf('파도 읽기 2강 진도율')).toBeGreaterThan(0);
    expect(
      Math.abs((await percentOf('파도 읽기 2강 진도율')) - (stoppedAtS / REPLAY_S) * 100),
    ).toBeLessThanOrEqual(10);
    expect(await percentOf('파도 읽기 1강 진도율')).toBeGreaterThan(0);
    classPercent = await percentOf('이 강의의 진도율');
    expect(classPercent).toBeGreaterThan(0);
    await progress.getByText(`${classPercent}%`, { exact: true }).waitFor();
    await progress.getByRole('button', { name: '파도 읽기 2강 이어보기' }).click();
    await studentPage.waitForURL((url) => url.pathname === secondPath);
    await eventually(async () =>
      Math.abs(((await videoState(studentPage))?.currentTime ?? 0) - stoppedAtS),
    ).toBeLessThanOrEqual(2);

    // A chapter, then a note, seeks the video there.
    const chapters = studentPage.getByRole('region', { name: '챕터', exact: true });
    const later = CHAPTERS[1] ?? { atS: -1, title: '' };
    const chapter = chapters.getByRole('button', { name: new RegExp(escapeRegExp(later.title)) });
    await chapter.click();
    await eventually(async () =>
      Math.abs(((await videoState(studentPage))?.currentTime ?? 0) - later.atS),
    ).toBeLessThan(0.5);
    await eventually(() => chapter.getAttribute('aria-current')).toBe('true');
    await notes.getByRole('button', { name: `${clocks[0] ?? ''}로 이동` }).click();
    await eventually(async () =>
      Math.abs(((await videoState(studentPage))?.currentTime ?? 0) - firstNoteS),
    ).toBeLessThan(0.5);

    // The class's notes as a Markdown file: the lecture's title, each note's time and text.
    const [download] = await Promise.all([
      studentPage.waitForEvent('download'),
      notes.getByRole('button', { name: '메모 내려받기 (.md)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('바다에서 읽는 파도 메모.md');
    const saved = path.join(dataDir, 'notes-download.md');
    await download.saveAs(saved);
    const markdown = fs.readFileSync(saved, 'utf8');
    expect(markdown).toContain('# 바다에서 읽는 파도 메모');
    expect(markdown).toMatch(/^## 파도 읽기 2강 \(\d{4}-\d\d-\d\d \d\d:\d\d\)$/m);
    expect(markdown).toContain(`- **${clocks[0] ?? ''}** ${NOTES[0] ?? ''}\n`);
    expect(markdown).toContain(`- **${clocks[1] ?? ''}** 파도 높이 공식은\n  다시 보기\n`);
    expect(markdown).not.toContain('## 파도 읽기 1강');
  });

  test("the teacher's dashboard shows the student's 진도율", async () => {
    const base = server?.baseUrl ?? '';
    await teacherPage.goto(`${base}/dashboard/teacher/${classId}`);
    const card = teacherPage.getByRole('region', { name: '수강생 진도율', exact: true });
    const bar = card.getByRole('progressbar', { name: '해달학생 진도율' });
    await eventually(async () => Number(await bar.getAttribute('aria-valuenow'))).toBe(classPercent);
    await card
      .getByRole('row', { name: /해달학생/ })
      .getByText(`${classPercent}%`, { exact: true })
      .waitFor();
  });
});
