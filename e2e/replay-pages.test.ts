/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
import { execFileSync } from 'node:child_process';
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
import { eventually } from './harness/poll.ts';
import { captureScreen } from './harness/screens.ts';
import { startServer } from '../harness/server-process.ts';
import type { RunningServer } from '../harness/server-process.ts';
import { buildWebOnce } from '../harness/web-build.ts';

const PROGRAMMING = 13;
const REPLAY_S = 20;
/** Chat messages of the ready session, by seconds after its start. */
const CHAT = [
  { atS: 3, content: '선생님 목소리 잘 들려요!' },
  { atS: 9, content: '지금 화면의 예제 다시 볼 수 있을까요?' },
  { atS: 15, content: '오늘 수업 감사합니다.' },
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function ffmpegAvailable(): boolean {
  try {
    execFileSync('ffmpeg', ['-hide_banner', '-version'], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.CI === 'true') throw new Error('ffmpeg is required for the replay pages journey');
    console.warn('\n!!! SKIPPING the replay pages journey: no ffmpeg on PATH !!!\n');
    return false;
  }
}

/**
 * A real replay as the processing job leaves it: a 20 s 1280x720 H.264/AAC MP4 (a test picture with a
 * running clock, a tone) remuxed into HLS VOD, and its timeline, in `REPLAYS_DIR/{sessionId}/`.
 */
function writeReplay(replaysDir: string, sessionId: number): void {
  const dir = path.join(replaysDir, String(sessionId));
  fs.mkdirSync(path.join(dir, 'hls'), { recursive: true });
  const mp4 = path.join(dir, 'replay.mp4');
  const quiet = ['-hide_banner', '-loglevel', 'error', '-y'];
  execFileSync('ffmpeg', [
    ...quiet,
    ...['-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=30:duration=${REPLAY_S}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${REPLAY_S}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '60'],
    ...['-c:a', 'aac', '-b:a', '96k', '-movflags', '+faststart', '-shortest', mp4],
  ]);
  execFileSync('ffmpeg', [
    ...[...quiet, '-i', mp4, '-c', 'copy', '-f', 'hls', '-hls_time', '6', '-hls_playlist_type', 'vod'],
    ...[
      '-hls_segment_filename',
      path.join(dir, 'hls', 'segment-%05d.ts'),
      path.join(dir, 'hls', 'index.m3u8'),
    ],
  ]);
  const durationMs = REPLAY_S * 1000;
  fs.writeFileSync(
    path.join(dir, 'timeline.json'),
    JSON.stringify({ sessionEndMs: durationMs, durationMs, cuts: [] }),
  );
}

/** The sessions a class has had, written straight into the stopped server's database. */
async function seedSessions(dataDir: string, classId: number): Promise<{ readyId: number }> {
  const db = new PGlite(path.join(dataDir, 'pglite'));
  try {
    const users = await db.query<{ id: string; nickname: string }>('select id, nickname from users');
    const idOf = (nickname: string) => {
      const user = users.rows.find((row) => row.nickname === nickname);
      if (user === undefined) throw new Error(`no user ${nickname}`);
      return user.id;
    };
    const student = idOf('해달학생');
    const classmate = idOf('물범학생');
    const hour = 3600_000;
    const now = Date.now();
    const insert = async (
      startedAgoMs: number,
      lengthMs: number | null,
      state: string,
      fields: { progress?: number; error?: string; title?: string; hidden?: boolean } = {},
    ): Promise<number> => {
      const started = new Date(now - startedAgoMs);
      const answer = await db.query<{ id: number }>(
        `insert into live_sessions (class_id, media_key, node_id, started_at, ended_at, recording_state,
           recording_progress, recording_error, replay_duration_ms, title, hidden)
         values ($1, $2, 'e2e-node', $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
        [
          classId,
          `e2e-${classId}-${startedAgoMs}`,
          started,
          lengthMs === null ? null : new Date(started.getTime() + lengthMs),
          state,
          fields.progress ?? (state === 'ready' ? 100 : 0),
          fields.error ?? null,
          state === 'ready' ? REPLAY_S * 1000 : null,
          fields.title ?? null,
          fields.hidden ?? false,
        ],
      );
      const id = answer.rows[0]?.id;
      if (id === undefined) throw new Error('insert failed');
      return id;
    };
    await insert(30 * 24 * hour, 40 * 60_000, 'none');
    await insert(7 * 24 * hour, 50 * 60_000, 'failed', {
      error: '녹화 파일을 찾을 수 없어 다시보기를 만들 수 없어요.',
    });
    await insert(3 * 24 * hour, 45 * 60_000, 'ready', { title: '숨겨 둔 연습 강의', hidden: true });
    const readyId = await insert(24 * hour, REPLAY_S * 1000, 'ready', { title: '파도 읽기 1강' });
    const processingId = await insert(2 * hour, 55 * 60_000, 'processing', { progress: 42 });
    // Its job waits in the queue (the second run has no worker), so it stays at 42 %.
    await db.query(`insert into jobs (kind, payload, key, state) values ('replay', $1, $2, 'queued')`, [
      JSON.stringify({ sessionId: processingId }),
      `replay:${processingId}`,
    ]);

    const readyStart = now - 24 * hour;
    for (const message of CHAT) {
      await db.query(
        'insert into chat_messages (class_id, user_id, content, created_at) values ($1, $2, $3, $4)',
        [classId, student, message.content, new Date(readyStart + message.atS * 1000)],
      );
    }
    const stay = async (userId: string, fromS: number, toS: number | null) =>
      db.query('insert into attendance (session_id, user_id, joined_at, left_at) values ($1, $2, $3, $4)', [
        readyId,
        userId,
        new Date(readyStart + fromS * 1000),
        toS === null ? null : new Date(readyStart + toS * 1000),
      ]);
    await stay(student, 0, 8);
    await stay(student, 10, 20);
    await stay(classmate, 2, 20);
    await db.query(
      `insert into replay_watches (session_id, user_id, watched_ms, position_s, playing, last_beat_at)
       values ($1, $2, 600000, 7, false, $3)`,
      [readyId, classmate, new Date(now - hour)],
    );
    return { readyId };
  } finally {
    await db.close();
  }
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
    const attendance = teacherPage.getByRole('table', { name: /파도 읽기 1강 · 참여 2명/ });
    await attendance.getByRole('row', { name: /해달학생 2회/ }).waitFor();
    await attendance.getByRole('row', { name: /물범학생 1회 .* 10분/ }).waitFor();
    expect(await captureScreen(teacherPage, 'replays-teacher-dashboard')).toEqual([]);
  });

  test("a student's dashboard lists the replays they may see and their own record", async () => {
    const base = server?.baseUrl ?? '';
    await studentPage.goto(`${base}/dashboard/student/${classId}`);
    const replays = studentPage.getByRole('region', { name: '다시보기', exact: true });
    await eventually(() => replays.getByRole('listitem').count()).toBe(4);
    await eventually(() => replays.getByText('숨겨 둔 연습 강의').count()).toBe(0);
    await eventually(() => replays.getByRole('button').count()).toBe(0);
    const mine = studentPage.getByRole('table', { name: '내 출석 기록' });
    await mine.getByRole('row', { name: /파도 읽기 1강 2회/ }).waitFor();
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
