/// <reference lib="dom" />
// Code inside addInitScript and page.evaluate runs in the browser and uses its globals.
//
// Issue 35's platform across hosts (deploy/hosts.test.ts runs this file in a network namespace of its own,
// which is the LAN's front: nginx and Chromium). Hosts A and B each run an API server and a media node; host C
// runs PostgreSQL, Redis and an S3 object store (Swift); every file is in the bucket (STORAGE=s3). Hosts are
// network namespaces on loopback addresses (hosts.ts). In Chromium, through nginx over HTTPS:
// 1. A teacher opens a class with a banner while only A's API server runs; with only B's running, a student
//    sees the banner.
// 2. The teacher lectures on A's media node (its capacity one student; B's node starts once the teacher is
//    live, or the roomier B would hold the class): one student is placed on A, the next on B's node, which
//    pulls the class from A through nginx.
// 3. Host A is killed (its network gone, then its processes: nothing refused): the teacher goes on from B, which
//    takes the room over, and both students receive the webcam there; host A boots again, its node uploads
//    what its disk kept of the recording.
// 4. The teacher ends; the replay job runs on B (A's API server takes no jobs); with B's API server stopped a
//    student watches the replay through A: one session, one replay of the lecture before and after the kill.
// Prints one `JOURNEY_RESULT {json}` line with what was seen; hosts.test.ts checks it. SEA_HOSTS_LOG_LEVEL=info
// (or debug) runs the services at that level and puts all of their output in the result's `logs`.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { ClassItem } from '@sea/contract/classes';
import type { SessionItem } from '@sea/contract/sessions';
import { loginThroughDev, storedTokens, type Tokens } from '../../e2e/harness/accounts.ts';
import { makePng } from '../../e2e/harness/png.ts';
import { journeyResult } from '../../e2e/live/journey-result.ts';
import { candidatePairs, PEER_CONNECTIONS, recordPeerConnections } from '../../e2e/live/media-stats.ts';
import { sleep, until } from '../../e2e/live/until.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, FAKE_MEDIA_FLAGS } from '../../harness/chromium.ts';
import { ARTIFACTS, REPO_ROOT } from '../../harness/paths.ts';
import { startService, type RunningServer } from '../../harness/server-process.ts';
import { SERVICE_ENTRIES } from '../../scripts/service-entries.ts';
import { frontOfLan, Host } from './hosts.ts';
import { httpsRequest, selfSignedCertificate, spkiHash, startNginx, stop } from './platform.ts';

/** The demo class of demo teacher 1001, which demo students 2001-2006 are enrolled in. */
const DEMO_CLASS = '처음 만나는 타입스크립트';
const BANNER_CLASS = '두 호스트에서 여는 강의';
const API_PORT = 5000;
const MEDIA_PORT = 5001;
/** nginx on the front: the site, and one public name (here: port) per media node. */
const PORTS = { http: 80, https: 443, nodes: { a: 8441, b: 8442 } };
const SECRET = (c: string) => c.repeat(40);
/** How long the lecture runs on A before the kill, and on B after everyone is back. */
const BEFORE_KILL_MS = 6_000;
const AFTER_BACK_MS = 6_000;

const result = journeyResult();
const files = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-two-hosts-'));
const front = frontOfLan();
const site = `https://${front}:${PORTS.https}`;
const nodeUrl = (name: 'a' | 'b') => `https://${front}:${PORTS.nodes[name]}`;
const hosts = { a: new Host('a', 11), b: new Host('b', 12), c: new Host('c', 13) };
const services: Service[] = [];
const children: ChildProcess[] = [];
let shared: { databaseUrl: string; redisUrl: string; storage: Record<string, string> } | null = null;

type Service = RunningServer & { name: string };

/**
 * Runs a service of the repository on `host` until its /health at `url` answers (from the front, over the
 * LAN), as the harness runs one on this machine.
 */
async function runService(
  name: string,
  host: Host,
  script: string,
  env: Record<string, string>,
  url: string,
): Promise<Service> {
  const level = { LOG_LEVEL: process.env.SEA_HOSTS_LOG_LEVEL ?? 'warn' };
  const service = {
    name,
    ...(await startService(script, url, { ...level, ...env }, undefined, host.spawn.bind(host))),
  };
  services.push(service);
  return service;
}

/** Host C's PostgreSQL, Redis and Swift (shared-host.ts), once all answer. */
async function startShared() {
  const child = hosts.c.spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'deploy/test/shared-host.ts'), hosts.c.address],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let output = '';
  return new Promise<NonNullable<typeof shared>>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('SHARED_HOST '));
      if (line) resolve(JSON.parse(line.slice('SHARED_HOST '.length)) as NonNullable<typeof shared>);
    });
    child.once('exit', (code) => reject(new Error(`the shared host exited (${code}):\n${output}`)));
  });
}

const certificate = selfSignedCertificate(files, front);

/** An API server on `host`; A's takes no jobs, so the replay job runs on B. */
function startApi(name: 'a' | 'b') {
  const host = hosts[name];
  if (!shared) throw new Error('the shared host is not up');
  return runService(
    `API server ${name}`,
    host,
    SERVICE_ENTRIES.server,
    {
      HOST: host.address,
      PORT: String(API_PORT),
      DATABASE_URL: shared.databaseUrl,
      REDIS_URL: shared.redisUrl,
      ...shared.storage,
      DATA_DIR: path.join(files, name, 'api'),
      PUBLIC_URL: site,
      MEDIA_URL: nodeUrl('a'),
      // Browsers may open signalling at every node (the page's content security policy).
      MEDIA_ORIGINS: `${nodeUrl('a')},${nodeUrl('b')}`,
      MEDIA_SECRET: SECRET('m'),
      JWT_SECRET: SECRET('j'),
      ICE_SERVERS: '[]',
      TRUST_PROXY: front,
      DEMO_DATA: 'true',
      WRITE_LIMITS: 'off',
      WEB_DIST: process.env.WEB_DIST ?? '',
      JOB_CONCURRENCY: name === 'a' ? '0' : '1',
    },
    `http://${host.address}:${API_PORT}`,
  );
}

/** The media node of `host`: A holds one student, B three; each trusts the front's certificate (relays). */
function startMedia(name: 'a' | 'b') {
  const host = hosts[name];
  if (!shared) throw new Error('the shared host is not up');
  return runService(
    `media node ${name}`,
    host,
    SERVICE_ENTRIES.media,
    {
      MEDIA_HOST: host.address,
      MEDIA_PORT: String(MEDIA_PORT),
      MEDIA_LISTEN_IP: host.address,
      MEDIA_ANNOUNCED_IP: host.address,
      MEDIA_PORT_RANGE: '40000-40099',
      MEDIA_NODE_ID: name,
      MEDIA_URL: nodeUrl(name),
      MEDIA_INTERNAL_URL: `http://${host.address}:${MEDIA_PORT}`,
      MEDIA_CAPACITY: name === 'a' ? '1' : '3',
      MEDIA_WORKERS: '0',
      API_URL: `http://${host.address}:${API_PORT}`,
      PUBLIC_URL: site,
      REDIS_URL: shared.redisUrl,
      ...shared.storage,
      MEDIA_SECRET: SECRET('m'),
      ICE_SERVERS: '[]',
      DATA_DIR: path.join(files, name, 'media'),
      RECORDINGS_DIR: path.join(files, name, 'recordings'),
      NODE_EXTRA_CA_CERTS: certificate.cert,
    },
    `http://${host.address}:${MEDIA_PORT}`,
  );
}

// Chromium's ICE candidates on the LAN only. Allowed loopback candidates (as FAKE_MEDIA_FLAGS allow them), it
// also gathered 127.0.0.1, whose checks the LAN carries (route_localnet) but whose answers go to the node's own
// 127.0.0.1: the ICE-lite node then sent its DTLS astray in two runs of five (the connection failed and was
// made again 10 s later). A real network never carries a loopback address; 127.10.0.1 is on the bridge, not
// on a loopback interface, so Chromium gathers it without the flag.
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: [
    ...CHROMIUM_FLAGS,
    ...FAKE_MEDIA_FLAGS.filter((flag) => flag !== '--allow-loopback-in-peer-connection'),
    '--autoplay-policy=no-user-gesture-required',
    `--ignore-certificate-errors-spki-list=${spkiHash(certificate.cert)}`,
  ],
});

/**
 * A person's browser profile, logged in through the front. Its pages keep their peer connections (as the live
 * journeys' do) and stamp (Date.now, every 100 ms) each moment a video frame was decoded since the last look:
 * `__seaDecodedAt`; `__seaLocals` gathers the addresses of their own ICE candidates.
 */
async function person(kakaoId: string, nickname: string): Promise<Page> {
  const context: BrowserContext = await browser.newContext({
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
    viewport: { width: 1280, height: 900 },
  });
  await recordPeerConnections(context);
  await context.addInitScript((key: string) => {
    const connections = (window as unknown as Record<string, RTCPeerConnection[]>)[key] ?? [];
    const decodedAt: number[] = [];
    const seen = new WeakMap<RTCPeerConnection, number>();
    const locals = new Set<string>();
    Object.assign(window, { __seaDecodedAt: decodedAt, __seaLocals: locals });
    setInterval(() => {
      for (const pc of connections) {
        if (pc.connectionState !== 'connected') continue;
        void pc.getStats().then((stats) => {
          let frames = 0;
          stats.forEach((entry: Record<string, unknown>) => {
            if (entry.type === 'inbound-rtp' && entry.kind === 'video')
              frames += Number(entry.framesDecoded ?? 0);
            if (entry.type === 'local-candidate') locals.add(String(entry.address));
          });
          if (frames > (seen.get(pc) ?? 0)) decodedAt.push(Date.now());
          if (decodedAt.length > 1_000) decodedAt.shift();
          seen.set(pc, frames);
        });
      }
    }, 100);
  }, PEER_CONNECTIONS);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${nickname}]`, error.message));
  pages.set(nickname, page);
  page.on('requestfailed', (request) => {
    // A page left while it loaded aborts its requests: not worth a line.
    const failure = request.failure()?.errorText ?? '';
    if (failure !== 'net::ERR_ABORTED') console.error(`[${nickname}] ${request.url()}: ${failure}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      console.error(`[${nickname}] ${message.text()}`);
  });
  await loginThroughDev(page, site, kakaoId);
  return page;
}

/** When the page decoded video (Date.now stamps), and the addresses of its own ICE candidates. */
function decoding(page: Page) {
  return page.evaluate(() => {
    const w = window as unknown as { __seaDecodedAt: number[]; __seaLocals: Set<string> };
    return { at: [...w.__seaDecodedAt], locals: [...w.__seaLocals] };
  });
}

/** The media nodes the page's open connections reach (their selected pairs' remote addresses). */
async function nodesOf(page: Page): Promise<string[]> {
  return [...new Set((await candidatePairs(page)).map((pair) => pair.remote))];
}

/** Whether the page decoded video in the last second. */
async function decodingNow(page: Page) {
  const { at } = await decoding(page);
  return (at.at(-1) ?? 0) > Date.now() - 1_000;
}

/**
 * How long after `since` the page decoded video again after its outage: the first stamp that follows a pause
 * of over 500 ms (the outage) after `since`. Null while it has not.
 */
async function backAfter(page: Page, since: number): Promise<number | null> {
  const after = (await decoding(page)).at.filter((at) => at > since);
  for (let i = 0; i < after.length; i += 1) {
    const previous = i === 0 ? since : (after[i - 1] ?? since);
    const stamp = after[i] ?? 0;
    // Steady again: at least ten more looks with frames after it.
    if (stamp - previous > 500 && after.length - i > 10) return stamp - since;
  }
  return null;
}

async function api<T>(baseUrl: string, route: string, tokens: Tokens): Promise<T> {
  const response = await fetch(`${baseUrl}${route}`, {
    headers: { authorization: `Bearer ${tokens.accessToken}` },
  });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

/** Every person's page by nickname: each is photographed when the journey fails. */
const pages = new Map<string, Page>();

/** How much of each service's output the result carries: all of it when asked for a log level (debugging). */
const logTail = process.env.SEA_HOSTS_LOG_LEVEL ? 1_000_000 : 4_000;

const statusOf = (page: Page) => page.getByRole('status', { name: '연결 상태' });

let stopped = false;
async function cleanUp() {
  if (stopped) return;
  stopped = true;
  await browser.close().catch(() => undefined);
  await Promise.all(services.map((service) => service.stop().catch(() => undefined)));
  for (const child of children) await stop(child).catch(() => undefined);
  for (const host of Object.values(hosts)) await host.kill().catch(() => undefined);
  fs.rmSync(files, { recursive: true, force: true });
}
process.on('SIGTERM', () => void cleanUp().then(() => process.exit(1)));

try {
  result.step = 'the hosts boot';
  for (const host of Object.values(hosts)) await host.boot();
  shared = await startShared();
  result.step = "A's API server and the front";
  const apiA = await startApi('a');
  const nginxValues = {
    SEA_DOMAIN: front,
    SEA_HTTP_LISTEN: `${front}:${PORTS.http}`,
    SEA_HTTPS_LISTEN: `${front}:${PORTS.https}`,
    SEA_CERT: certificate.cert,
    SEA_KEY: certificate.key,
    SEA_API_1: `${hosts.a.address}:${API_PORT}`,
    SEA_API_2: `${hosts.b.address}:${API_PORT}`,
    SEA_MEDIA: `${hosts.a.address}:${MEDIA_PORT}`,
  };
  const nodes = (['a', 'b'] as const).map((name) => ({
    SEA_MEDIA_LISTEN: `${front}:${PORTS.nodes[name]}`,
    SEA_MEDIA_NAME: front,
    SEA_MEDIA_NODE: `${hosts[name].address}:${MEDIA_PORT}`,
    SEA_CERT: certificate.cert,
    SEA_KEY: certificate.key,
  }));
  children.push(await startNginx(files, nginxValues, PORTS.https, { nodes, host: front }));

  result.step = 'a banner uploaded through A';
  const teacher = await person('1001', '선생님');
  const teacherTokens = await storedTokens(teacher);
  await teacher.goto(`${site}/lecture/open`);
  await teacher.getByLabel('배너 이미지').setInputFiles({
    name: 'banner.png',
    mimeType: 'image/png',
    buffer: makePng(640, 360, [11, 61, 145], [25, 179, 196]),
  });
  await teacher.getByRole('img', { name: '선택한 이미지 미리보기' }).waitFor();
  const category = teacher.getByLabel(/카테고리/);
  await until(
    () => category.locator('option').count(),
    (n) => n > 1,
    15_000,
  );
  await category.selectOption({ label: '프로그래밍' });
  await teacher.getByLabel(/강의 제목/).fill(BANNER_CLASS);
  await teacher.getByLabel(/강의 목표/).fill('두 호스트에서도 같은 배너를 봐요.');
  await teacher.getByLabel(/강의 설명/).fill('한 호스트에서 올린 배너가 다른 호스트에서도 보여요.');
  await teacher.getByRole('button', { name: '강의 개설하기' }).click();
  const opened = teacher.getByRole('alertdialog', { name: '강의가 개설되었어요!' });
  await opened.waitFor({ timeout: 20_000 });
  await opened.getByRole('button', { name: '강의실로 가기' }).click();
  await teacher.waitForURL(/\/lecture\/info\/\d+$/);
  const bannerClassId = Number(new URL(teacher.url()).pathname.split('/').pop());

  result.step = 'the banner shown through B';
  const apiB = await startApi('b');
  await apiA.stop();
  const student = await person('2001', '학생1');
  await student.goto(`${site}/lecture/info/${bannerClassId}`);
  const banner = student.getByRole('img', { name: `${BANNER_CLASS} 강의 배너` }).first();
  await banner.waitFor({ timeout: 15_000 });
  result.bannerSrc = await banner.getAttribute('src');
  result.bannerShownMs = await until(
    () => banner.evaluate((img) => (img as HTMLImageElement).naturalWidth),
    (width) => width === 640,
    15_000,
  );
  await startApi('a');

  result.step = "the teacher lectures on A's node";
  await startMedia('a');
  const classes = await api<ClassItem[]>(apiB.baseUrl, '/api/classes?target=created', teacherTokens);
  const classId = classes.find((item) => item.name === DEMO_CLASS)?.id ?? 0;
  await teacher.goto(`${site}/live/teacher/${classId}`);
  await teacher.getByRole('heading', { name: DEMO_CLASS, level: 1 }).waitFor();
  await until(
    () => statusOf(teacher).textContent(),
    (t) => t === '연결됨',
    30_000,
  );
  const lectureStartedAt = Date.now();
  await teacher.getByRole('button', { name: '웹캠 켜기' }).click();
  const webcam = teacher.locator('[data-toggle="webcam"]');
  await until(
    () => webcam.textContent(),
    (t) => t === '송출 중',
    30_000,
  );

  result.step = "students on A's node and on B's";
  await startMedia('b');
  await student.goto(`${site}/live/student/${classId}`);
  result.firstStudentMs = await until(() => decodingNow(student), Boolean, 45_000);
  const second = await person('2002', '학생2');
  await second.goto(`${site}/live/student/${classId}`);
  result.secondStudentMs = await until(() => decodingNow(second), Boolean, 45_000);
  result.secondStatus = await statusOf(second).textContent();
  result.studentCandidates = (await decoding(second)).locals;
  result.placedBefore = {
    teacher: await nodesOf(teacher),
    first: await nodesOf(student),
    second: await nodesOf(second),
  };
  await sleep(BEFORE_KILL_MS);

  result.step = 'host A is killed';
  const killedAt = Date.now();
  result.killedAt = killedAt;
  await hosts.a.kill();
  const back = async (page: Page) =>
    (await until(
      () => backAfter(page, killedAt),
      (ms) => ms !== null,
      30_000,
    )) ?? null;
  const [firstBack, secondBack] = await Promise.all([back(student), back(second)]);
  result.recovery = {
    firstStudentMs: firstBack === null ? null : await backAfter(student, killedAt),
    secondStudentMs: secondBack === null ? null : await backAfter(second, killedAt),
    teacherWebcam: await webcam.textContent(),
    teacherStatus: await statusOf(teacher).textContent(),
  };
  result.placedAfter = {
    teacher: await nodesOf(teacher),
    first: await nodesOf(student),
    second: await nodesOf(second),
  };

  result.step = 'host A boots again';
  await hosts.a.boot();
  await startApi('a');
  await startMedia('a');
  await sleep(AFTER_BACK_MS);

  result.step = 'the teacher ends the lecture';
  await teacher.locator('#main').getByRole('button', { name: '강의실 나가기' }).click();
  await teacher.getByRole('alertdialog', { name: '강의를 종료할까요?' }).waitFor();
  await teacher.getByRole('button', { name: '강의 종료' }).click();
  const endedAt = Date.now();
  result.lectureMs = endedAt - lectureStartedAt;
  result.killedAtMs = killedAt - lectureStartedAt;

  result.step = 'the replay is made on B';
  const studentTokens = await storedTokens(student);
  const lectureSessions = async () =>
    (await api<SessionItem[]>(apiB.baseUrl, `/api/classes/${classId}/sessions`, studentTokens)).filter(
      (item) => Date.parse(item.started_at) >= lectureStartedAt - 5_000,
    );
  let sessions: SessionItem[] = [];
  result.readyAfterMs = await until(
    async () => (sessions = await lectureSessions()),
    (items) => items.length > 0 && items.every((item) => ['ready', 'failed'].includes(item.recording.state)),
    240_000,
  );
  result.sessions = sessions.map((item) => ({
    id: item.id,
    durationS: item.duration_s,
    state: item.recording.state,
    error: item.recording.error,
    gaps: item.recording.gaps,
  }));

  result.step = 'the replay watched through A';
  await apiB.stop();
  // The site answers from A alone.
  result.siteFromAMs = await until(
    () =>
      httpsRequest(`${site}/health`, fs.readFileSync(certificate.cert, 'utf8')).then(
        (answer) => answer.status,
        () => 0,
      ),
    (status) => status === 200,
    30_000,
  );
  const replayId = sessions[0]?.id ?? 0;
  await student.goto(`${site}/dashboard/student/${classId}/replays/${replayId}`);
  await student.locator('video').waitFor({ timeout: 20_000 });
  result.replayPlayingMs = await until(
    () =>
      student.evaluate(() => {
        const video = document.querySelector('video');
        if (!video) return 0;
        // Played as a student clicks play; again while the player is still loading its source (a play()
        // the load interrupts is rejected, and then the video is simply still paused).
        if (video.paused) video.play().catch(() => undefined);
        return video.getVideoPlaybackQuality().totalVideoFrames;
      }),
    (frames) => frames > 20,
    20_000,
  );
  result.replay = await student.evaluate(() => {
    const video = document.querySelector('video');
    return video
      ? { duration: video.duration, width: video.videoWidth, currentTime: video.currentTime }
      : null;
  });
  result.step = 'done';
} catch (error) {
  result.error = (error as Error).stack ?? String(error);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  for (const [nickname, page] of pages) {
    const file = path.join(ARTIFACTS, `two-hosts-failed-${nickname}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
  }
} finally {
  // The services' last words, for a failure (or figures that are off).
  const nginxLog = path.join(files, 'nginx-error.log');
  result.logs = [
    ...services.map((service) => `--- ${service.name}\n${service.logs().slice(-logTail)}`),
    `--- nginx\n${fs.existsSync(nginxLog) ? fs.readFileSync(nginxLog, 'utf8').slice(-logTail) : ''}`,
  ].join('\n');
  await cleanUp();
}
console.log(`JOURNEY_RESULT ${JSON.stringify(result)}`);
process.exit(0);
