/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
//
// Issue 5's journey through the real pages: the API server, the media service and Chromium (fake camera,
// microphone and screen) in this process's own network namespace, loopback only (live-journey.test.ts starts
// it there). A teacher opens the live room and switches on the four streams; three enrolled students watch at
// three qualities; the teacher switches the webcam off and on; the teacher leaves and every student ends on the
// dashboard with the notice. Prints one `JOURNEY_RESULT {json}` line with what was seen; the test checks it.
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { Layer } from '@sea/contract/live';
import { loginThroughDev, signUpThroughUi, storedTokens } from '../harness/accounts.ts';
import { ApiClient } from '../harness/api.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, FAKE_MEDIA_FLAGS } from '../harness/chromium.ts';
import { planMedia, startMedia } from '../harness/media-process.ts';
import { captureScreen, type AxeViolation } from '../harness/screens.ts';
import { startServer, type RunningServer } from '../harness/server-process.ts';

const PROGRAMMING = 13;
const CLASS_NAME = '라이브 웹캠 실습';
const LAYERS: Layer[] = ['q', 'h', 'f'];
const LAYER_WIDTH = { q: 320, h: 640, f: 1280 } as const;
const LAYER_OPTION = { q: '저화질', h: '중화질', f: '고화질' } as const;
const WEBCAM = '강사 카메라 영상';
const SCREEN = '강사 화면 공유';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `done` holds (every 200 ms, at most `ms`); returns the time it took, or null. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number) {
  const start = performance.now();
  while (performance.now() - start < ms) {
    if (done(await read())) return Math.round(performance.now() - start);
    await sleep(200);
  }
  return null;
}

type VideoFigures = { present: boolean; width: number; height: number; frames: number };

/** The named video element's size and the frames it has shown so far. */
function video(page: Page, label: string): Promise<VideoFigures> {
  return page.evaluate((name) => {
    const element = document.querySelector<HTMLVideoElement>(`video[aria-label="${name}"]`);
    if (!element) return { present: false, width: 0, height: 0, frames: 0 };
    return {
      present: true,
      width: element.videoWidth,
      height: element.videoHeight,
      frames: element.getVideoPlaybackQuality().totalVideoFrames,
    };
  }, label);
}

/** Frames per second of the named video over `ms`, with its size at the end. */
async function rate(page: Page, label: string, ms = 2_000) {
  const before = await video(page, label);
  await sleep(ms);
  const after = await video(page, label);
  return { width: after.width, height: after.height, fps: ((after.frames - before.frames) * 1000) / ms };
}

/** The teacher's audio elements: how many, playing or not, and whether their tracks carry sound packets. */
function audio(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLAudioElement>('audio[data-kind="teacher-audio"]')].map((element) => {
      const track = (element.srcObject as MediaStream | null)?.getAudioTracks()[0];
      return { playing: !element.paused, receiving: track !== undefined && !track.muted };
    }),
  );
}

const result: Record<string, unknown> = {};
const violations: Record<string, AxeViolation[]> = {};
let server: RunningServer | undefined;
let media: RunningServer | undefined;
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: [...CHROMIUM_FLAGS, ...FAKE_MEDIA_FLAGS],
});

async function personPage(kakaoId: string, nickname: string): Promise<Page> {
  const context: BrowserContext = await browser.newContext({
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${nickname}]`, error.message));
  await loginThroughDev(page, server?.baseUrl ?? '', kakaoId);
  await signUpThroughUi(page, nickname);
  return page;
}

try {
  result.step = 'start';
  const dist = process.env.WEB_DIST;
  if (!dist) throw new Error('WEB_DIST is not set');
  const link = await planMedia();
  server = await startServer(dist, { env: { MEDIA_URL: link.mediaUrl, MEDIA_SECRET: link.secret } });
  media = await startMedia(link, server.baseUrl);
  const baseUrl = server.baseUrl;

  result.step = 'accounts';
  const teacher = await personPage('8401', '파도선생');
  const teacherApi = new ApiClient(baseUrl, await storedTokens(teacher));
  const classId = await teacherApi.createClass({ categoryId: PROGRAMMING, name: CLASS_NAME });
  const students: Page[] = [];
  for (const [i, nickname] of ['해마학생', '고래학생', '거북학생'].entries()) {
    const page = await personPage(String(8402 + i), nickname);
    await new ApiClient(baseUrl, await storedTokens(page)).enroll(classId);
    students.push(page);
  }
  const isLive = async () => {
    const response = await fetch(`${baseUrl}/api/classes/${classId}`);
    return ((await response.json()) as { data: { is_active: boolean } }).data.is_active;
  };
  result.liveBefore = await isLive();

  result.step = 'teacher opens the room';
  await teacher.goto(`${baseUrl}/live/teacher/${classId}`);
  await teacher.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();
  const teacherStatus = teacher.getByRole('status', { name: '연결 상태' });
  result.teacherConnectedMs = await until(
    () => teacherStatus.textContent(),
    (t) => t === '연결됨',
    20_000,
  );
  result.liveAfterStart = await until(isLive, (live) => live, 10_000);

  result.step = 'teacher switches the four streams on';
  const toggles = { webcam: '웹캠', microphone: '마이크', screen: '화면 공유', systemAudio: '시스템 소리' };
  const published: Record<string, string | null> = {};
  for (const [name, label] of Object.entries(toggles)) {
    await teacher.getByRole('button', { name: `${label} 켜기` }).click();
    const state = teacher.locator(`[data-toggle="${name}"]`);
    await until(
      () => state.textContent(),
      (t) => t === '송출 중' || t === '송출 실패',
      20_000,
    );
    published[name] = await state.textContent();
  }
  result.published = published;
  result.teacherPreviews = {
    webcam: (await video(teacher, '내 웹캠 미리보기')).width,
    screen: (await video(teacher, '내 화면 공유 미리보기')).width,
  };

  result.step = 'students join and choose their quality';
  for (const [i, page] of students.entries()) {
    await page.goto(`${baseUrl}/live/student/${classId}`);
    await page.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();
    await page.getByLabel('화질').selectOption({ label: LAYER_OPTION[LAYERS[i] ?? 'q'] });
  }
  result.viewerCountMs = await until(
    () => teacher.getByText('시청자 3명').count(),
    (n) => n > 0,
    15_000,
  );
  result.layerReachedMs = await Promise.all(
    students.map((page, i) =>
      until(
        () => video(page, WEBCAM),
        (v) => v.width === LAYER_WIDTH[LAYERS[i] ?? 'q'],
        30_000,
      ),
    ),
  );

  result.step = 'students watch and hear';
  result.students = await Promise.all(
    students.map(async (page, i) => {
      const webcam = await rate(page, WEBCAM);
      const screen = await video(page, SCREEN);
      // The browser may block sound until the student taps 'tap to hear' (소리 켜기): then tap it.
      const tap = page.getByRole('button', { name: '소리 켜기' });
      const tapShown = await until(
        () => tap.count(),
        (n) => n > 0,
        4_000,
      );
      if (tapShown !== null) await tap.click();
      await until(
        () => audio(page),
        (a) => a.length === 2 && a.every((x) => x.playing && x.receiving),
        10_000,
      );
      return { layer: LAYERS[i], webcam, screenWidth: screen.width, audio: await audio(page), tapShown };
    }),
  );
  violations.teacherRoom = await captureScreen(teacher, 'live-teacher-publishing');
  violations.studentRoom = await captureScreen(students[2] as Page, 'live-student-watching');

  result.step = 'the q student switches to high quality';
  const switcher = students[0] as Page;
  const switchFrames = (await video(switcher, WEBCAM)).frames;
  await switcher.getByLabel('화질').selectOption({ label: LAYER_OPTION.f });
  result.switchMs = await until(
    () => video(switcher, WEBCAM),
    (v) => v.width === 1280 && v.frames > switchFrames,
    15_000,
  );

  result.step = 'teacher switches the webcam off and on';
  await teacher.getByRole('button', { name: '웹캠 끄기' }).click();
  result.webcamOffMs = await Promise.all(
    students.map((page) =>
      until(
        () => page.getByText('카메라 꺼짐').count(),
        (n) => n > 0,
        10_000,
      ),
    ),
  );
  await teacher.getByRole('button', { name: '웹캠 켜기' }).click();
  result.webcamOnMs = await Promise.all(
    students.map(async (page) => {
      const start = performance.now();
      const shown = await until(
        () => video(page, WEBCAM),
        (v) => v.present,
        10_000,
      );
      if (shown === null) return null;
      const first = (await video(page, WEBCAM)).frames;
      const decoding = await until(
        () => video(page, WEBCAM),
        (v) => v.frames > first + 5,
        10_000,
      );
      return decoding === null ? null : Math.round(performance.now() - start);
    }),
  );

  result.step = 'teacher leaves';
  // The room's own button (the header has an icon button with the same name).
  await teacher.locator('#main').getByRole('button', { name: '강의실 나가기' }).click();
  const dialog = teacher.getByRole('alertdialog', { name: '강의를 종료하시겠어요?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: '강의 나가기' }).click();
  const leftAt = performance.now();
  result.ended = await Promise.all(
    students.map(async (page) => {
      const notice = await until(
        () => page.getByText('강의가 종료되었어요').count(),
        (n) => n > 0,
        15_000,
      );
      await until(
        async () => new URL(page.url()).pathname,
        (p) => p === `/dashboard/student/${classId}`,
        15_000,
      );
      return {
        noticeMs: notice === null ? null : Math.round(performance.now() - leftAt),
        path: new URL(page.url()).pathname,
      };
    }),
  );
  result.expectedPath = `/dashboard/student/${classId}`;
  result.teacherPath = new URL(teacher.url()).pathname;
  result.liveAfterLeave = await until(isLive, (live) => !live, 15_000);
  violations.studentDashboard = await captureScreen(students[0] as Page, 'live-student-after-end');
  result.step = 'done';
} catch (error) {
  result.error = String((error as Error).stack ?? error);
  result.serverLogs = server?.logs().slice(-4_000);
  result.mediaLogs = media?.logs().slice(-4_000);
} finally {
  result.violations = violations;
  await browser.close();
  await media?.stop();
  await server?.stop();
}
process.stdout.write(`JOURNEY_RESULT ${JSON.stringify(result)}\n`);
process.exit(0);
