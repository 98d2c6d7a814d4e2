/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
//
// Issue 15's journeys through the real pages, loopback only like the live journey (run-live-journey.ts):
// 1. A teacher lectures about 20 s with webcam, screen and microphone, switching the webcam off and on midway,
//    while a student chats at a known moment; the teacher ends; the replay becomes ready; the student opens it:
//    the video decodes frames, audio is decoded, the duration matches the lecture, seeking to the middle works,
//    and the chat message shows at its moment. ffprobe reads the MP4's streams and duration. A PDF is on stage
//    from the start, its page 2 written on with the pen and the highlighter: after a seek the replay page shows
//    it with its ink and lists its chapter, and the MP4's frame there is the inked page. After the webcam is
//    back the teacher sets a chapter with the room's '여기서 새 챕터' and names it on the replay page once the
//    replay is ready: ffprobe lists it in the MP4's chapters (first as made, then renamed) and the student's
//    replay lists it. Then the student asks a question and the teacher runs a poll the student answers: the
//    replay's chat pane shows both ('질문', '투표') at their moments, and a click on the question seeks there.
// 2. A crash: the teacher lectures again with a student in the room, who speaks at the teacher's invitation;
//    the media service is killed (SIGKILL): both see the outage banner within 2 s and the live and recording
//    labels stopped; it is started again, both rooms come back by themselves into the same lecture, the
//    student speaking again without raising a hand, the teacher ends it: one session, one
//    attendance session, one replay made of the stretches before and after the gap.
// Files are kept as a multi-host platform keeps them where OpenStack Swift is installed (required when CI=true):
// STORAGE=s3 for the API server and the media service, so the recordings go up into the bucket as they are made,
// the killed service uploads what its disk kept once started again, and the replays are made from the bucket
// and served from it. Elsewhere the local driver.
// Prints one `JOURNEY_RESULT {json}` line with what was seen; replay-journey.test.ts checks it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import type { SessionBoard } from '@sea/contract/board';
import type { MaterialDetail } from '@sea/contract/materials';
import type { SessionItem } from '@sea/contract/sessions';
import { loginThroughDev, signUpThroughUi, storedTokens, type Tokens } from '../harness/accounts.ts';
import { ApiClient } from '../harness/api.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, FAKE_MEDIA_FLAGS } from '../../harness/chromium.ts';
import { planMedia, startMedia } from '../../harness/media-process.ts';
import { drawOn, inkPixels, shownPage } from '../harness/board-page.ts';
import { captureScreen, type AxeViolation } from '../harness/screens.ts';
import { startServer, type RunningServer } from '../../harness/server-process.ts';
import { objectStoreAvailable, type ObjectStore, startObjectStore } from '../../harness/object-store.ts';
import { LocalFileStore } from '@sea/service-kit/storage/local-file-store';
import { S3FileStore, s3Client } from '@sea/service-kit/storage/s3-file-store';
import { AREAS } from '../../apps/server/src/storage/file-stores.ts';
import { makePdf } from '../../apps/server/test/documents.ts';
import { frameDifference } from '../../apps/server/test/recording-fixture.ts';
import { inkedPage } from '../../apps/server/src/materials/inked-page.ts';
import { FRAME } from '../../apps/server/src/replays/composition-plan.ts';
import { journeyResult } from './journey-result.ts';
import { sleep, until } from './until.ts';

const PROGRAMMING = 13;
const CLASS_NAME = '다시보기 실습 강의';
/** The lecture's length, and when (after the room opened) the student writes and the webcam goes off / on. */
const LECTURE_MS = 20_000;
const CHAT_AT_MS = 7_000;
const WEBCAM_OFF_AT_MS = 10_000;
const WEBCAM_ON_AT_MS = 13_000;
const CHAT_TEXT = '7초쯤에 보낸 질문이에요';
/** When the teacher turns to the material's page 2 and writes on it; it stays on stage to the end (a chapter). */
const PAGE_TWO_AT_MS = 3_000;
const MATERIAL = { name: '파도의 원리', pages: ['Waves 1', 'Waves 2'] };
const QUESTION_TEXT = '예제 파일은 어디서 받나요?';
const POLL_QUESTION = '오늘 수업 속도는 어땠나요?';
/** When (after the room opened) the teacher sets a chapter live, and the name it gets on the replay page. */
const CHAPTER_AT_MS = 15_000;
const CHAPTER_TITLE = '웹캠 다시 켠 뒤';

const result = journeyResult();
const violations: Record<string, AxeViolation[]> = {};
let server: RunningServer | undefined;
let media: RunningServer | undefined;
const isolated = process.env.SEA_NETNS === '1';
const files = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-replay-journey-'));
const recordingsDir = path.join(files, 'recordings');
const replaysDir = path.join(files, 'replays');
let store: ObjectStore | null = null;

/** The replays' store the API server keeps them in (the bucket with STORAGE=s3, else REPLAYS_DIR). */
function replayFiles() {
  return store
    ? new S3FileStore(s3Client(store.storage), store.bucket, AREAS.replays)
    : new LocalFileStore(replaysDir);
}

/** A replay's MP4 copied out of its store into `to` (fresh at each call: a chapter rewrite replaces it). */
async function replayMp4(sessionId: number, to: string): Promise<string> {
  await replayFiles().copyOut(`${sessionId}/replay.mp4`, to);
  return to;
}

/** The raw recordings' objects in the bucket (none with the local driver). */
async function storedRecordings() {
  if (!store) return [];
  return new S3FileStore(s3Client(store.storage), store.bucket, AREAS.recordings).list('');
}
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: [
    ...CHROMIUM_FLAGS,
    ...FAKE_MEDIA_FLAGS,
    '--autoplay-policy=no-user-gesture-required',
    ...(isolated ? [] : ['--disable-features=WebRtcHideLocalIpsWithMdns']),
  ],
});

async function personPage(kakaoId: string, nickname: string): Promise<Page> {
  const context = await browser.newContext({
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

async function sessions(baseUrl: string, tokens: Tokens, classId: number): Promise<SessionItem[]> {
  const response = await fetch(`${baseUrl}/api/classes/${classId}/sessions`, {
    headers: { authorization: `Bearer ${tokens.accessToken}` },
  });
  if (!response.ok) throw new Error(`sessions answered ${response.status}`);
  return ((await response.json()) as { data: SessionItem[] }).data;
}

/**
 * Opens the teacher's room and switches on the named toggles ('웹캠', '마이크', '화면 공유'). Answers the
 * `performance.now()` at which the room said '연결됨': the session (the replay's time 0) starts when the room
 * opens, before the toggles, whose clicks may take seconds on a loaded machine.
 */
async function teach(page: Page, baseUrl: string, classId: number, toggles: string[]): Promise<number> {
  await page.goto(`${baseUrl}/live/teacher/${classId}`);
  await page.getByRole('heading', { name: CLASS_NAME, level: 1 }).waitFor();
  const status = page.getByRole('status', { name: '연결 상태' });
  await until(
    () => status.textContent(),
    (t) => t === '연결됨',
    20_000,
  );
  const connectedAt = performance.now();
  for (const label of toggles) {
    await page.getByRole('button', { name: `${label} 켜기` }).click();
    await page.getByRole('button', { name: `${label} 끄기` }).waitFor({ timeout: 20_000 });
  }
  return connectedAt;
}

/** The streams, duration and chapters (`-show_chapters`: start in seconds, title) ffprobe reads in the file. */
function probe(file: string) {
  const run = spawnSync(
    'ffprobe',
    [
      ...['-v', 'error', '-show_entries', 'stream=codec_type,codec_name:format=duration'],
      ...['-show_chapters', '-of', 'json', file],
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) return { error: run.stderr };
  const parsed = JSON.parse(run.stdout) as {
    streams: { codec_type: string; codec_name: string }[];
    format: { duration: string };
    chapters?: { start_time: string; tags?: { title?: string } }[];
  };
  return {
    streams: parsed.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort(),
    durationS: Number(parsed.format.duration),
    chapters: (parsed.chapters ?? []).map((c) => ({
      startS: Number(c.start_time),
      title: c.tags?.title ?? '',
    })),
  };
}

/** Uploads a PDF as the teacher and waits until its pages are made; answers the material with its pages. */
async function uploadMaterial(baseUrl: string, tokens: Tokens, classId: number): Promise<MaterialDetail> {
  const headers = { authorization: `Bearer ${tokens.accessToken}` };
  const form = new FormData();
  const pdf = new Blob([new Uint8Array(makePdf(MATERIAL.pages))], { type: 'application/pdf' });
  form.append('file', pdf, `${MATERIAL.name}.pdf`);
  const posted = await fetch(`${baseUrl}/api/classes/${classId}/materials`, {
    method: 'POST',
    headers,
    body: form,
  });
  if (posted.status !== 202) throw new Error(`the upload answered ${posted.status}: ${await posted.text()}`);
  const { id } = ((await posted.json()) as { data: { id: number } }).data;
  let material: MaterialDetail | undefined;
  await until(
    async () => {
      const answer = await fetch(`${baseUrl}/api/classes/${classId}/materials/${id}`, { headers });
      return (material = ((await answer.json()) as { data: MaterialDetail }).data);
    },
    (m) => m.state !== 'converting',
    60_000,
  );
  if (material?.state !== 'ready') throw new Error(`the material is ${material?.state ?? 'missing'}`);
  return material;
}

/** The chapters' texts in a replay page's '챕터' list, in order. */
function chapterTexts(page: Page) {
  return page
    .getByRole('region', { name: '챕터', exact: true })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => item.textContent ?? ''));
}

/** What the page's replay video shows: its time, duration, frames presented and audio bytes decoded. */
function player(page: Page) {
  return page.evaluate(() => {
    const video = document.querySelector('video');
    if (!video) return null;
    const decoded = video as HTMLVideoElement & { webkitAudioDecodedByteCount?: number };
    return {
      currentTime: video.currentTime,
      duration: video.duration,
      paused: video.paused,
      frames: video.getVideoPlaybackQuality().totalVideoFrames,
      audioBytes: decoded.webkitAudioDecodedByteCount ?? 0,
      width: video.videoWidth,
    };
  });
}

/** Frames the video presents over `ms`, counted with requestVideoFrameCallback. */
function framesPresented(page: Page, ms: number) {
  return page.evaluate((span: number) => {
    const video = document.querySelector('video');
    if (!video) return 0;
    return new Promise<number>((resolve) => {
      let frames = 0;
      const count = () => {
        frames += 1;
        video.requestVideoFrameCallback(count);
      };
      video.requestVideoFrameCallback(count);
      setTimeout(() => resolve(frames), span);
    });
  }, ms);
}

try {
  result.step = 'start';
  const dist = process.env.WEB_DIST;
  if (!dist) throw new Error('WEB_DIST is not set');
  const link = await planMedia();
  if (await objectStoreAvailable()) store = await startObjectStore();
  else if (process.env.CI === 'true') throw new Error('CI=true: OpenStack Swift is required');
  result.storage = store ? 's3' : 'local';
  const shared = { RECORDINGS_DIR: recordingsDir, ...store?.env };
  server = await startServer(dist, {
    env: { MEDIA_URL: link.mediaUrl, MEDIA_SECRET: link.secret, REPLAYS_DIR: replaysDir, ...shared },
  });
  const baseUrl = server.baseUrl;
  media = await startMedia(link, baseUrl, shared);

  result.step = 'accounts';
  const [teacher, student] = await Promise.all([
    personPage('8501', '등대선생'),
    personPage('8502', '해마학생'),
  ]);
  const teacherTokens = await storedTokens(teacher);
  const classId = await new ApiClient(baseUrl, teacherTokens).createClass({
    categoryId: PROGRAMMING,
    name: CLASS_NAME,
  });
  const studentTokens = await storedTokens(student);
  await new ApiClient(baseUrl, studentTokens).enroll(classId);
  result.step = 'the teacher uploads a material';
  const material = await uploadMaterial(baseUrl, teacherTokens, classId);
  const pageTwo = `${material.id}:2`;

  result.step = 'the teacher lectures';
  const roomOpenedAt = await teach(teacher, baseUrl, classId, ['웹캠', '마이크', '화면 공유']);
  const at = (ms: number) => sleep(Math.max(0, roomOpenedAt + ms - performance.now()));
  // The material on stage instead of the screen share, page 1, then page 2 written on until the end.
  await teacher.getByLabel('발표할 자료').selectOption({ label: MATERIAL.name });
  await until(
    () => shownPage(teacher),
    (shown) => shown === `${material.id}:1`,
    15_000,
  );
  await at(PAGE_TWO_AT_MS);
  // The arrows turn pages unless a field has them: the teacher leaves the material's select first (on a
  // loaded machine the key otherwise reached the select, which keeps its arrows, and no page turned).
  await teacher.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await teacher.keyboard.press('ArrowRight');
  await until(
    () => shownPage(teacher),
    (shown) => shown === pageTwo,
    15_000,
  );
  result.pageTwoAtMs = Math.round(performance.now() - roomOpenedAt);
  await drawOn(teacher, [0.15, 0.3], [0.6, 0.55]);
  await teacher.getByRole('button', { name: '형광펜' }).click();
  await drawOn(teacher, [0.1, 0.7], [0.65, 0.7]);
  result.inkDoneAtMs = Math.round(performance.now() - roomOpenedAt);
  await student.goto(`${baseUrl}/live/student/${classId}`);
  const chat = student.getByRole('region', { name: '채팅', exact: true });
  await chat.getByRole('status').filter({ hasText: '연결됨' }).waitFor({ timeout: 15_000 });
  // Nobody is recorded unknowingly: the teacher and the student see the same state.
  result.teacherSeesRecording = await until(
    () => teacher.getByText('녹화 중', { exact: true }).count(),
    (n) => n > 0,
    10_000,
  );
  result.studentSeesRecording = await until(
    () => student.getByText('이 강의는 녹화되고 있어요').count(),
    (n) => n > 0,
    10_000,
  );
  violations.recordingStudent = await captureScreen(student, 'replay-live-student-recorded');
  await at(CHAT_AT_MS);
  const box = chat.getByRole('textbox', { name: '보낼 메시지' });
  await box.fill(CHAT_TEXT);
  await box.press('Enter');
  result.chatSentAtMs = Math.round(performance.now() - roomOpenedAt);
  await at(WEBCAM_OFF_AT_MS);
  await teacher.getByRole('button', { name: '웹캠 끄기' }).click();
  await at(WEBCAM_ON_AT_MS);
  await teacher.getByRole('button', { name: '웹캠 켜기' }).click();
  violations.recordingTeacher = await captureScreen(teacher, 'replay-live-teacher-recording');
  await at(CHAPTER_AT_MS);
  await teacher.getByRole('button', { name: '여기서 새 챕터' }).click();
  result.chapterMarkedAtMs = Math.round(performance.now() - roomOpenedAt);
  result.chapterNotice = await teacher
    .getByText(/에 새 챕터를 만들었어요/)
    .first()
    .textContent({ timeout: 5_000 });
  result.step = 'a question and a poll in the lecture';
  const teacherPanel = teacher.getByRole('region', { name: '채팅', exact: true });
  await chat.getByRole('tab', { name: /^질문/ }).click();
  await chat.getByRole('textbox', { name: '질문 내용' }).fill(QUESTION_TEXT);
  await chat.getByRole('button', { name: '질문하기' }).click();
  await teacherPanel.getByRole('tab', { name: /^투표/ }).click();
  await teacherPanel.getByRole('textbox', { name: '투표 질문' }).fill(POLL_QUESTION);
  await teacherPanel
    .getByRole('textbox', { name: '보기 (한 줄에 하나, 2~6개)' })
    .fill('빨라요\n적당해요\n느려요');
  await teacherPanel.getByRole('button', { name: '투표 시작' }).click();
  await chat.getByRole('tab', { name: /^투표/ }).click();
  const pollCard = chat.getByRole('listitem', { name: POLL_QUESTION });
  await pollCard.getByRole('radio', { name: '적당해요' }).check();
  await pollCard.getByRole('button', { name: '답하기' }).click();
  await teacherPanel
    .getByRole('listitem', { name: POLL_QUESTION })
    .getByRole('button', { name: '마감하고 결과 공개' })
    .click();
  await chat.getByRole('tab', { name: /^채팅/ }).click();
  result.step = 'the teacher lectures';
  await at(LECTURE_MS);
  await teacher.locator('#main').getByRole('button', { name: '강의실 나가기' }).click();
  await teacher.getByRole('alertdialog', { name: '강의를 종료할까요?' }).waitFor();
  await teacher.getByRole('button', { name: '강의 종료' }).click();
  result.lectureMs = Math.round(performance.now() - roomOpenedAt);

  result.step = 'the replay is processed';
  let session: SessionItem | undefined;
  result.readyAfterMs = await until(
    async () => (session = (await sessions(baseUrl, studentTokens, classId))[0]),
    (item) => item?.recording.state === 'ready' || item?.recording.state === 'failed',
    180_000,
  );
  if (!session) throw new Error('no session listed');
  result.session = session;
  const replayId = session.id;
  const mp4 = path.join(files, 'replay.mp4');
  result.probe = probe(await replayMp4(replayId, mp4));

  result.step = 'the teacher names the chapter on the replay page';
  await teacher.goto(`${baseUrl}/dashboard/teacher/${classId}/replays/${session.id}`);
  const teacherChapters = teacher.getByRole('region', { name: '챕터', exact: true });
  await teacherChapters.getByRole('button', { name: '챕터 이름 바꾸기: 새 챕터' }).click();
  const rename = teacherChapters.getByRole('textbox', { name: '챕터 이름', exact: true });
  await rename.fill(CHAPTER_TITLE);
  await rename.press('Enter');
  await teacherChapters.getByRole('button', { name: `챕터 이름 바꾸기: ${CHAPTER_TITLE}` }).waitFor();
  result.teacherChapters = await chapterTexts(teacher);
  // The MP4 is remuxed with the new name a second after the change.
  result.chapterRenamedInMp4Ms = await until(
    async () => probe(await replayMp4(replayId, mp4)),
    (p) => (p.chapters ?? []).some((c) => c.title === CHAPTER_TITLE),
    15_000,
  );
  result.renamedProbe = probe(await replayMp4(replayId, mp4));

  result.step = 'the student watches the replay';
  const chatAnswer = await fetch(`${baseUrl}/api/classes/${classId}/sessions/${session.id}/chat`, {
    headers: { authorization: `Bearer ${studentTokens.accessToken}` },
  });
  result.sessionChat = ((await chatAnswer.json()) as { data: unknown }).data;
  await student.goto(`${baseUrl}/dashboard/student/${classId}`);
  await student
    .getByRole('link', { name: /다시보기/ })
    .first()
    .click();
  await student.locator('video').waitFor({ timeout: 15_000 });
  await until(
    () => player(student),
    (p) => p !== null && Number.isFinite(p.duration) && p.duration > 0,
    15_000,
  );
  await student
    .getByRole('region', { name: '챕터', exact: true })
    .getByText(CHAPTER_TITLE)
    .waitFor({ timeout: 10_000 });
  result.studentChapters = await chapterTexts(student);
  await student.evaluate(() => document.querySelector('video')?.play());
  const message = student.getByText(CHAT_TEXT);
  result.chatHiddenAtStart = (await message.count()) === 0;
  result.framesPresented = await framesPresented(student, 2_000);
  result.playing = await player(student);
  violations.replayPage = await captureScreen(student, 'replay-page');
  result.chatShownMs = await until(
    () => message.count(),
    (n) => n > 0,
    CHAT_AT_MS + 10_000,
  );
  result.chatShownAtS = (await player(student))?.currentTime;

  result.step = "the replay's pane shows the question and the poll";
  const classroomAnswer = await fetch(`${baseUrl}/api/classes/${classId}/sessions/${session.id}/classroom`, {
    headers: { authorization: `Bearer ${studentTokens.accessToken}` },
  });
  const classroom = (
    (await classroomAnswer.json()) as {
      data: { questions: { offset_ms: number }[]; polls: { offset_ms: number; counts: number[] | null }[] };
    }
  ).data;
  result.classroom = classroom;
  const pane = student.getByRole('region', { name: '채팅', exact: true });
  const questionItem = pane.getByRole('button', {
    name: new RegExp(`^질문.*${QUESTION_TEXT.replace('?', '\\?')}`),
  });
  const pollItem = pane.getByRole('button', {
    name: new RegExp(`^투표.*${POLL_QUESTION.replace('?', '\\?')}`),
  });
  await student.evaluate(
    (t: number) => {
      const video = document.querySelector('video');
      if (video) video.currentTime = t;
    },
    ((await player(student))?.duration ?? 1) - 0.5,
  );
  result.paneShowsQuestion = await until(
    () => questionItem.count(),
    (n) => n > 0,
    5_000,
  );
  result.paneShowsPoll = await until(
    () => pollItem.count(),
    (n) => n > 0,
    5_000,
  );
  result.pollItemText = await pollItem.textContent();
  await student.evaluate(() => document.querySelector('video')?.pause());
  violations.replayPane = await captureScreen(student, 'replay-pane-questions-polls');
  await questionItem.click();
  await sleep(500);
  result.questionClickSeek = (await player(student))?.currentTime;
  await student.evaluate(() => document.querySelector('video')?.play());

  result.step = 'the student seeks to the middle';
  const middle = ((await player(student))?.duration ?? 0) / 2;
  await student.evaluate((t: number) => {
    const video = document.querySelector('video');
    if (video) video.currentTime = t;
  }, middle);
  await sleep(1_500);
  const afterSeek = await player(student);
  result.seek = {
    middle,
    currentTime: afterSeek?.currentTime,
    frames: await framesPresented(student, 1_000),
  };

  result.step = 'a click on the message seeks to it';
  await message.click();
  await sleep(500);
  result.clickSeek = (await player(student))?.currentTime;

  result.step = 'the replay shows the page with its ink, as the MP4 does';
  // A moment with page 2 and its ink on stage and the webcam back in its corner.
  const boardAtS = (WEBCAM_ON_AT_MS + LECTURE_MS) / 2 / 1000;
  await student.evaluate((t: number) => {
    const video = document.querySelector('video');
    if (video) {
      video.pause();
      video.currentTime = t;
    }
  }, boardAtS);
  result.replayBoard = {
    page: await until(
      () => shownPage(student),
      (shown) => shown === pageTwo,
      10_000,
    ),
    inkPixels: await until(
      () => inkPixels(student, pageTwo),
      (n) => n > 200,
      10_000,
    ),
    chapter: await until(
      () =>
        student
          .getByRole('region', { name: '챕터' })
          .getByText(MATERIAL.pages[1] ?? '')
          .count(),
      (n) => n > 0,
      10_000,
    ),
  };
  violations.replayBoard = await captureScreen(student, 'replay-board');
  const board = (
    (await (
      await fetch(`${baseUrl}/api/classes/${classId}/sessions/${session.id}/board`, {
        headers: { authorization: `Bearer ${studentTokens.accessToken}` },
      })
    ).json()) as { data: SessionBoard }
  ).data;
  const image = material.pages[1]?.image_url ?? '';
  const pageImage = Buffer.from(await (await fetch(new URL(image, baseUrl))).arrayBuffer());
  // The webcam's corner, at the right, is left out of the comparison.
  const strokes = board.strokes.filter((stroke) => `${stroke.material_id}:${stroke.page}` === pageTwo);
  result.mp4Board = {
    strokes: strokes.length,
    inked: await frameDifference(mp4, boardAtS, await inkedPage(pageImage, strokes, FRAME), 0.7),
    bare: await frameDifference(mp4, boardAtS, await inkedPage(pageImage, [], FRAME), 0.7),
  };

  result.step = 'the media service is killed mid-lecture';
  await teach(teacher, baseUrl, classId, ['웹캠', '마이크']);
  await student.goto(`${baseUrl}/live/student/${classId}`);
  await until(
    () => student.getByText('이 강의는 녹화되고 있어요').count(),
    (n) => n > 0,
    15_000,
  );
  // The student speaks when the service dies: the turn comes back with the room (issue 32 item 1).
  await student.getByRole('button', { name: /손들기/ }).click();
  const invite = teacher
    .getByRole('list', { name: '손든 순서' })
    .getByRole('listitem')
    .filter({ hasText: '해마학생' })
    .getByRole('button', { name: '발언 요청' });
  await invite.waitFor({ timeout: 15_000 });
  await invite.click();
  const prompt = student.getByRole('alertdialog', { name: /강사가 발언을 요청했어요/ });
  await prompt.waitFor({ timeout: 10_000 });
  await prompt.getByRole('button', { name: '수락' }).click();
  const studentSpeaking = () => student.getByRole('status').filter({ hasText: '발언 중' }).count();
  const teacherSeesSpeaking = () =>
    teacher.getByRole('region', { name: '발언자' }).getByText('발언 중').count();
  await until(
    async () => (await studentSpeaking()) * (await teacherSeesSpeaking()),
    (n) => n > 0,
    20_000,
  );
  await sleep(4_000);
  const banner = (page: Page) =>
    page.getByRole('alert').filter({ hasText: '연결이 끊겼어요. 다시 연결하는 중이에요' });
  const recordingText = (page: Page) => page.getByRole('status', { name: '녹화 상태' }).textContent();
  const webcamText = () => teacher.locator('[data-toggle="webcam"]').textContent();
  media.kill('SIGKILL');
  const killedAt = performance.now();
  const outage: Record<string, unknown> = {
    teacherBannerMs: await until(
      () => banner(teacher).count(),
      (n) => n > 0,
      5_000,
    ),
    studentBannerMs: await until(
      () => banner(student).count(),
      (n) => n > 0,
      5_000,
    ),
    webcam: await webcamText(),
    teacherRecording: await recordingText(teacher),
    studentRecording: await recordingText(student),
  };
  result.outage = outage;
  violations.outageTeacher = await captureScreen(teacher, 'replay-outage-teacher', { settle: false });
  violations.outageStudent = await captureScreen(student, 'replay-outage-student', { settle: false });
  media = await startMedia(link, baseUrl, shared);
  // The API server keeps the lecture's session 20 s for its teacher: how much of it the restart took.
  outage.restartedAfterMs = Math.round(performance.now() - killedAt);
  // Both rooms come back by themselves, the teacher's streams too, into the same lecture.
  outage.bannersGoneMs = await until(
    async () => (await banner(teacher).count()) + (await banner(student).count()),
    (n) => n === 0,
    45_000,
  );
  outage.webcamBackMs = await until(webcamText, (t) => t === '송출 중', 15_000);
  // Both sides reset their speakers on reconnecting: '발언 중' again is the new room seating the student.
  outage.speakingBackMs = await until(
    async () => (await studentSpeaking()) * (await teacherSeesSpeaking()),
    (n) => n > 0,
    30_000,
  );
  if (outage.speakingBackMs === null)
    outage.speakingNotBack = {
      prompt: await prompt.count(),
      student: await studentSpeaking(),
      speakers: await teacher
        .getByRole('region', { name: '발언자' })
        .textContent({ timeout: 1_000 })
        .catch(() => null),
    };
  outage.teacherRecordingBack = await recordingText(teacher);
  outage.studentRecordingBack = await recordingText(student);
  await sleep(4_000);
  await teacher.locator('#main').getByRole('button', { name: '강의실 나가기' }).click();
  await teacher.getByRole('alertdialog', { name: '강의를 종료할까요?' }).waitFor();
  await teacher.getByRole('button', { name: '강의 종료' }).click();
  let crashed: SessionItem | undefined;
  result.crashReadyAfterMs = await until(
    async () => (crashed = (await sessions(baseUrl, teacherTokens, classId))[0]),
    (item) =>
      item !== undefined &&
      item.id !== session?.id &&
      item.ended_at !== null &&
      ['ready', 'failed', 'none'].includes(item.recording.state),
    180_000,
  );
  result.crashed = crashed;
  if (crashed) result.crashProbe = probe(await replayMp4(crashed.id, path.join(files, 'crashed.mp4')));
  // Nothing raw is left: the killed service's own copy went up when it started again, and every raw
  // recording goes from the store once its replay is made.
  const rawLeft = async () => ({
    stored: (await storedRecordings()).length,
    onDisk: fs.existsSync(recordingsDir) ? fs.readdirSync(recordingsDir) : [],
  });
  await until(rawLeft, (left) => left.stored + left.onDisk.length === 0, 15_000);
  result.rawLeft = await rawLeft();
  // One lecture stays one lecture: two sessions in all (the first lecture and this one), in every list.
  result.sessionCount = (await sessions(baseUrl, teacherTokens, classId)).length;
  const attendance = await fetch(`${baseUrl}/api/classes/${classId}/attendance`, {
    headers: { authorization: `Bearer ${teacherTokens.accessToken}` },
  });
  result.attendanceSessions = (
    (await attendance.json()) as { data: { sessions: unknown[] } }
  ).data.sessions.length;
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
  await store?.stop();
  fs.rmSync(files, { recursive: true, force: true });
}
process.stdout.write(`JOURNEY_RESULT ${JSON.stringify(result)}\n`);
process.exit(0);
