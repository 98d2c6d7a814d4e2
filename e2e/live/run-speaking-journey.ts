/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
//
// Issue 17's 'raise hand and speak' through the real pages: the API server, the media service and Chromium
// (fake microphone: a beep), loopback only (see run-isolated.ts). A teacher opens the live room with the
// microphone on; two enrolled students enter; one raises a hand; the teacher presses '발언 요청' beside it;
// the student accepts (the browser gives the fake microphone) and sees '발언 중'; the teacher and the other
// student hear the speaker: packets and audio energy of the speaker's audio element keep growing (getStats).
// The teacher ends it ('발언 종료'): the speaker's indicator and everybody's speaker audio go away. Prints one
// `JOURNEY_RESULT {json}` line; speaking-journey.test.ts checks it.
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { loginThroughDev, signUpThroughUi, storedTokens } from '../harness/accounts.ts';
import { ApiClient } from '../harness/api.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, FAKE_MEDIA_FLAGS } from '../../harness/chromium.ts';
import { planMedia, startMedia } from '../../harness/media-process.ts';
import { captureScreen, type AxeViolation } from '../harness/screens.ts';
import { startServer, type RunningServer } from '../../harness/server-process.ts';
import { recordPeerConnections } from './media-stats.ts';
import { journeyResult } from './journey-result.ts';
import { sleep, until } from './until.ts';

const PROGRAMMING = 13;
const CLASS_NAME = '발언 실습';
const PEER_CONNECTIONS = '__seaPeerConnections';

type SpeakerAudio = { elements: number; playing: boolean; packetsReceived: number; totalAudioEnergy: number };

/** The speakers' audio elements of a page, and the inbound-rtp figures of the tracks they play (summed). */
function speakerAudio(page: Page): Promise<SpeakerAudio> {
  return page.evaluate(async (key: string) => {
    const elements = [...document.querySelectorAll<HTMLAudioElement>('audio[data-kind="speaker-audio"]')];
    const ids = new Set(elements.map((e) => (e.srcObject as MediaStream | null)?.getTracks()[0]?.id));
    let packetsReceived = 0;
    let totalAudioEnergy = 0;
    const all = (window as unknown as Record<string, RTCPeerConnection[]>)[key] ?? [];
    for (const pc of all.filter((connection) => connection.connectionState !== 'closed')) {
      const report = await pc.getStats();
      report.forEach((entry: Record<string, unknown>) => {
        if (entry.type !== 'inbound-rtp' || !ids.has(entry.trackIdentifier as string)) return;
        packetsReceived += Number(entry.packetsReceived ?? 0);
        totalAudioEnergy += Number(entry.totalAudioEnergy ?? 0);
      });
    }
    return {
      elements: elements.length,
      playing: elements.length > 0 && elements.every((e) => !e.paused),
      packetsReceived,
      totalAudioEnergy,
    };
  }, PEER_CONNECTIONS);
}

/** Whether the page hears the speaker over `ms`: packets arriving and audio energy growing. */
async function hearing(page: Page, ms = 1_500) {
  const before = await speakerAudio(page);
  await sleep(ms);
  const after = await speakerAudio(page);
  return {
    elements: after.elements,
    playing: after.playing,
    packetsGained: after.packetsReceived - before.packetsReceived,
    energyGained: after.totalAudioEnergy - before.totalAudioEnergy,
    totalAudioEnergy: after.totalAudioEnergy,
  };
}

const result = journeyResult();
const violations: Record<string, AxeViolation[]> = {};
let server: RunningServer | undefined;
let media: RunningServer | undefined;
const isolated = process.env.SEA_NETNS === '1';
result.isolated = isolated;
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
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

/** Taps '소리 켜기' when the browser blocked autoplay (the tap is the gesture that allows it). */
async function allowSound(page: Page): Promise<void> {
  const tap = page.getByRole('button', { name: '소리 켜기' });
  if (
    (await until(
      () => tap.count(),
      (n) => n > 0,
      2_000,
    )) !== null
  )
    await tap.first().click();
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
  const [teacher, speaker, listener] = await Promise.all(
    (['파도선생', '해마학생', '고래학생'] as const).map((nickname, i) =>
      personPage(String(8501 + i), nickname),
    ),
  );
  if (!teacher || !speaker || !listener) throw new Error('no people');
  const teacherApi = new ApiClient(baseUrl, await storedTokens(teacher));
  const classId = await teacherApi.createClass({ categoryId: PROGRAMMING, name: CLASS_NAME });
  for (const page of [speaker, listener])
    await new ApiClient(baseUrl, await storedTokens(page)).enroll(classId);

  result.step = 'teacher opens the room with the microphone on';
  await teacher.goto(`${baseUrl}/live/teacher/${classId}`);
  await teacher.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();
  const connected = (page: Page) =>
    until(
      () => page.getByRole('status', { name: '연결 상태' }).textContent(),
      (t) => t === '연결됨',
      20_000,
    );
  result.teacherConnectedMs = await connected(teacher);
  await teacher.getByRole('button', { name: '마이크 켜기' }).click();
  result.teacherMicrophone = await until(
    () => teacher.locator('[data-toggle="microphone"]').textContent(),
    (t) => t === '송출 중',
    20_000,
  );

  result.step = 'students enter';
  for (const page of [speaker, listener]) {
    await page.goto(`${baseUrl}/live/student/${classId}`);
    await page.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();
  }
  result.studentsConnectedMs = await Promise.all([speaker, listener].map(connected));
  const chatOnline = (page: Page) =>
    page
      .getByRole('region', { name: '채팅', exact: true })
      .getByRole('status')
      .filter({ hasText: '연결됨' })
      .waitFor({ timeout: 20_000 });
  await Promise.all([teacher, speaker, listener].map(chatOnline));

  result.step = 'a student raises a hand, the teacher invites';
  // Before any invitation the student publishes nothing: no 'speaking' controls at all.
  result.promptBeforeInvitation = await speaker.getByRole('alertdialog').count();
  await speaker.getByRole('button', { name: /손들기/ }).click();
  const queue = teacher.getByRole('list', { name: '손든 순서' });
  const invite = queue.getByRole('listitem').filter({ hasText: '해마학생' }).getByRole('button', {
    name: '발언 요청',
  });
  await invite.waitFor({ timeout: 15_000 });
  await invite.click();
  result.teacherSeesWaiting = await until(
    () => queue.getByText('수락 기다리는 중').count(),
    (n) => n > 0,
    10_000,
  );

  result.step = 'the student accepts and speaks';
  const prompt = speaker.getByRole('alertdialog', { name: /강사가 발언을 요청했어요/ });
  await prompt.waitFor({ timeout: 10_000 });
  violations.prompt = await captureScreen(speaker, 'live-student-speak-invitation');
  await prompt.getByRole('button', { name: '수락' }).click();
  result.speakingShownMs = await until(
    () => speaker.getByRole('status').filter({ hasText: '발언 중' }).count(),
    (n) => n > 0,
    20_000,
  );
  result.endOwnButton = await speaker.getByRole('button', { name: '발언 끝내기' }).count();
  result.teacherSeesSpeaking = await until(
    () => teacher.getByRole('region', { name: '발언자' }).getByText('발언 중').count(),
    (n) => n > 0,
    10_000,
  );
  violations.speaking = await captureScreen(speaker, 'live-student-speaking');

  result.step = 'the teacher and the other student hear the speaker';
  const heard: Record<string, unknown> = {};
  for (const [name, page] of [
    ['teacher', teacher],
    ['otherStudent', listener],
  ] as const) {
    await until(
      () => speakerAudio(page),
      (a) => a.elements > 0,
      20_000,
    );
    await allowSound(page);
    await until(
      () => speakerAudio(page),
      (a) => a.playing && a.packetsReceived > 0,
      10_000,
    );
    heard[name] = await hearing(page);
  }
  result.heard = heard;
  // The speaker does not get their own voice back.
  result.speakerOwnAudio = (await speakerAudio(speaker)).elements;
  violations.teacherSpeakers = await captureScreen(teacher, 'live-teacher-speaker');

  result.step = 'the teacher ends it';
  await teacher.getByRole('region', { name: '발언자' }).getByRole('button', { name: '발언 종료' }).click();
  result.indicatorGoneMs = await until(
    () => speaker.getByRole('button', { name: '발언 끝내기' }).count(),
    (n) => n === 0,
    10_000,
  );
  result.speakerAudioGone = {
    teacher: await until(
      async () => (await speakerAudio(teacher)).elements,
      (n) => n === 0,
      10_000,
    ),
    otherStudent: await until(
      async () => (await speakerAudio(listener)).elements,
      (n) => n === 0,
      10_000,
    ),
  };
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
