/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
//
// Issue 5's journey through the real pages: the API server, the media service and Chromium (fake camera,
// microphone and screen), loopback only: in this process's own network namespace when live-journey.test.ts
// may create one (SEA_NETNS=1), else with the media service on 127.0.0.1 and Chromium without mDNS. A teacher
// opens the live room and switches on the four streams; three enrolled students watch at three qualities
// (frames counted from getStats, sound from packets and audio energy arriving); a student opens the header's
// exit dialog and stays; one switches quality (sampled for freezes); the teacher switches the webcam off and
// on; the teacher leaves through the 'End the lecture?' dialog and every student ends on the dashboard with the
// notice. Prints one `JOURNEY_RESULT {json}` line with what was seen; the test checks it.
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { Layer } from '@sea/contract/live';
import { loginThroughDev, signUpThroughUi, storedTokens } from '../harness/accounts.ts';
import { ApiClient } from '../harness/api.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, FAKE_MEDIA_FLAGS } from '../../harness/chromium.ts';
import { planMedia, startMedia } from '../../harness/media-process.ts';
import { captureScreen, type AxeViolation } from '../harness/screens.ts';
import { startServer, type RunningServer } from '../../harness/server-process.ts';
import {
  candidatePairs,
  inbound,
  outboundLayers,
  presented,
  receiving,
  recordPeerConnections,
  sampleDecoding,
  switchFigures,
} from './media-stats.ts';
import { journeyResult } from './journey-result.ts';
import { sleep, until } from './until.ts';

const PROGRAMMING = 13;
const CLASS_NAME = '라이브 웹캠 실습';
const LAYERS: Layer[] = ['q', 'h', 'f'];
const LAYER_WIDTH = { q: 320, h: 640, f: 1280 } as const;
const LAYER_OPTION = { q: '저화질', h: '중화질', f: '고화질' } as const;
const WEBCAM = '강사 카메라 영상';
const SCREEN = '강사 화면 공유';

type VideoFigures = { present: boolean; width: number; height: number; frames: number };

/** The named video's decoded size and the frames decoded so far (getStats), and whether it is on the page. */
async function video(page: Page, label: string): Promise<VideoFigures> {
  const present = (await page.locator(`video[aria-label="${label}"]`).count()) > 0;
  const figures = (await inbound(page))[label];
  return {
    present,
    width: figures?.frameWidth ?? 0,
    height: figures?.frameHeight ?? 0,
    frames: figures?.framesDecoded ?? 0,
  };
}

/** Decoded frames per second of the named video over `ms`, with its decoded size at the end. */
async function rate(page: Page, label: string, ms = 2_000) {
  const before = await video(page, label);
  await sleep(ms);
  const after = await video(page, label);
  return { width: after.width, height: after.height, fps: ((after.frames - before.frames) * 1000) / ms };
}

/**
 * The teacher's two sounds (microphone, system audio) as a student's page plays them: playing or not, whether
 * packets keep arriving (getStats packetsReceived growing over `ms`), and whether what is played carries
 * sound (totalAudioEnergy growing).
 */
async function audio(page: Page, ms = 1_000) {
  const elements = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLAudioElement>('audio[data-kind="teacher-audio"]')].map(
        (element) => !element.paused,
      ),
    );
  const before = await inbound(page);
  await sleep(ms);
  const after = await inbound(page);
  return (await elements()).map((playing, i) => {
    const start = before[`audio-${i}`];
    const end = after[`audio-${i}`];
    return {
      playing,
      receiving: start !== undefined && end !== undefined && end.packetsReceived > start.packetsReceived,
      sounding: start !== undefined && end !== undefined && end.totalAudioEnergy > start.totalAudioEnergy,
    };
  });
}

const result = journeyResult();
const violations: Record<string, AxeViolation[]> = {};
let server: RunningServer | undefined;
let media: RunningServer | undefined;
/** Inside a loopback-only network namespace (live-journey.test.ts), or on this machine's network. */
const isolated = process.env.SEA_NETNS === '1';
result.isolated = isolated;
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  // Without a namespace of its own Chromium would announce its host candidates with mDNS (multicast on the
  // real network); with real addresses instead, every packet is addressed to the media service on 127.0.0.1
  // or to this machine's own addresses, so nothing leaves it (the journey checks the pairs in use).
  args: [
    ...CHROMIUM_FLAGS,
    ...FAKE_MEDIA_FLAGS,
    ...(isolated ? [] : ['--disable-features=WebRtcHideLocalIpsWithMdns']),
  ],
});

async function personPage(kakaoId: string, nickname: string): Promise<Page> {
  const context: BrowserContext = await browser.newContext({
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
    viewport: { width: 1280, height: 900 },
  });
  await recordPeerConnections(context);
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
  // The service's default forwarding workers, unless MEDIA_WORKERS says otherwise (0: all on the main thread).
  const workers = process.env.MEDIA_WORKERS;
  media = await startMedia(link, server.baseUrl, workers === undefined ? {} : { MEDIA_WORKERS: workers });
  result.mediaWorkers = workers ?? 'default';
  const baseUrl = server.baseUrl;

  result.step = 'accounts';
  // The four sign up at once (each in a context of its own), as the speaking journey's students do.
  const [teacher, ...students] = await Promise.all(
    ['파도선생', '해마학생', '고래학생', '거북학생'].map((nickname, i) =>
      personPage(String(8401 + i), nickname),
    ),
  );
  if (!teacher) throw new Error('no teacher');
  const teacherApi = new ApiClient(baseUrl, await storedTokens(teacher));
  const classId = await teacherApi.createClass({ categoryId: PROGRAMMING, name: CLASS_NAME });
  for (const page of students) await new ApiClient(baseUrl, await storedTokens(page)).enroll(classId);
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

  result.step = 'teacher cancels the screen picker';
  // The fake-media flags answer the picker at once; here the first request is refused as a person cancelling
  // it would be (NotAllowedError), then the browser's own capture is back.
  await teacher.evaluate(() => {
    const devices = navigator.mediaDevices;
    const own = devices.getDisplayMedia.bind(devices);
    devices.getDisplayMedia = async () => {
      devices.getDisplayMedia = own;
      throw new DOMException('Permission denied', 'NotAllowedError');
    };
  });
  await teacher.getByRole('button', { name: '화면 공유 켜기' }).click();
  const screenState = teacher.locator('[data-toggle="screen"]');
  await until(
    () => screenState.textContent(),
    (t) => t !== '꺼짐' && t !== '장치 준비 중',
    10_000,
  );
  result.screenCancelled = {
    state: await screenState.textContent(),
    pressed: await teacher.getByRole('button', { name: '화면 공유 켜기' }).getAttribute('aria-pressed'),
  };
  violations.screenCancelled = await captureScreen(teacher, 'live-teacher-screen-cancelled');

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
  const previews = {
    webcam: await presented(teacher, '내 웹캠 미리보기'),
    screen: await presented(teacher, '내 화면 공유 미리보기'),
  };
  result.teacherPreviews = { webcam: previews.webcam.width, screen: previews.screen.width };
  result.teacherPreviewFrames = { webcam: previews.webcam.frames, screen: previews.screen.frames };

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
      const screen = await rate(page, SCREEN);
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
      return {
        layer: LAYERS[i],
        webcam,
        screenWidth: screen.width,
        screenFps: screen.fps,
        audio: await audio(page),
        tapShown,
      };
    }),
  );
  // What the teacher sends meanwhile: a layer the teacher's browser scaled down or stopped explains a student
  // who gets less than their layer.
  result.teacherLayersWhileWatching = await outboundLayers(teacher);
  result.candidatePairs = {
    teacher: await candidatePairs(teacher),
    students: await Promise.all(students.map(candidatePairs)),
  };
  violations.teacherRoom = await captureScreen(teacher, 'live-teacher-publishing');
  violations.studentRoom = await captureScreen(students[2] as Page, 'live-student-watching');

  result.step = "a student opens the header's exit dialog and stays";
  const stayer = students[1] as Page;
  await stayer.locator('header').getByRole('button', { name: '강의에서 나가기' }).click();
  const exitDialog = stayer.getByRole('alertdialog', { name: '강의에서 나가시겠어요?' });
  await exitDialog.waitFor();
  violations.exitDialog = await captureScreen(stayer, 'live-student-exit-dialog');
  await exitDialog.getByRole('button', { name: '취소' }).click();
  await exitDialog.waitFor({ state: 'hidden' });
  result.stayedAfterExitDialog = new URL(stayer.url()).pathname;
  result.studentRoomPath = `/live/student/${classId}`;

  result.step = 'the q student switches to high quality';
  const switcher = students[0] as Page;
  // Sampled in the page every 50 ms from before the switch until well after it.
  const countersBefore = await receiving(switcher, WEBCAM);
  const sampling = sampleDecoding(switcher, WEBCAM, 6_000);
  await sleep(300);
  await switcher.getByLabel('화질').selectOption({ label: LAYER_OPTION.f });
  const samples = await sampling;
  // What the teacher sends right after: a layer the teacher's browser stopped encoding explains a freeze.
  result.teacherLayersAfterSwitch = await outboundLayers(teacher);
  result.switcherCounters = {
    before: countersBefore,
    after: await receiving(switcher, WEBCAM),
    pairs: await candidatePairs(switcher),
  };
  const layerSwitch = switchFigures(samples, 1280);
  result.layerSwitch = layerSwitch;
  result.switchSamples = samples.map((sample) => [sample.at, sample.frames, sample.width]);
  result.switchMs = layerSwitch.switchedAfterMs;

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
  const webcamOn = await Promise.all(
    students.map(async (page) => {
      const start = performance.now();
      const shown = await until(
        () => video(page, WEBCAM),
        (v) => v.present,
        10_000,
      );
      if (shown === null) return { ms: null, shownMs: null, counters: null };
      const first = (await video(page, WEBCAM)).frames;
      const decoding = await until(
        () => video(page, WEBCAM),
        (v) => v.frames > first + 5,
        10_000,
      );
      const ms = decoding === null ? null : Math.round(performance.now() - start);
      return { ms, shownMs: shown, counters: await receiving(page, WEBCAM) };
    }),
  );
  result.webcamOnMs = webcamOn.map((student) => student.ms);
  result.webcamOnDetail = webcamOn;

  result.step = 'teacher leaves';
  // The room's own button (the header has an icon button with the same name).
  await teacher.locator('#main').getByRole('button', { name: '강의실 나가기' }).click();
  const dialog = teacher.getByRole('alertdialog', { name: '강의를 종료할까요?' });
  await dialog.waitFor();
  violations.endDialog = await captureScreen(teacher, 'live-teacher-end-dialog');
  await dialog.getByRole('button', { name: '강의 종료' }).click();
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
