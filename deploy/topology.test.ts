import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RTCPeerConnection,
  RTCRtpCodecParameters,
  useAbsSendTime,
  useNACK,
  usePLI,
  useREMB,
  useSdesMid,
} from 'werift';
import WebSocket from 'ws';
import { TokenPairSchema, type TokenPair } from '@sea/contract/auth';
import { CHAT_ENDPOINT, CHAT_SEND_DESTINATION, chatTopic } from '@sea/contract/chat';
import type { ClassItem } from '@sea/contract/classes';
import { LIVE_SOCKET_PATH, type LiveAnswer } from '@sea/contract/live';
import type { LiveTicket } from '@sea/contract/live-ticket';
import type { Readiness } from '@sea/contract/readiness';
import { createTestDatabase, postgresAvailable, redisAvailable } from '../apps/server/test/helper.ts';
import type { ServerProcess } from '../apps/server/test/server-process.ts';
import { freePort } from '@sea/service-kit/test/free-port';
import { isVp8KeyframeStart } from '../apps/media/src/forwarding/vp8.ts';
import { loginThroughDev } from '../e2e/harness/accounts.ts';
import {
  chromiumAvailable,
  FAKE_MEDIA_FLAGS,
  launchChromium,
  type JourneyBrowser,
} from '../harness/chromium.ts';
import { buildWebOnce } from '../harness/web-build.ts';
import { SyntheticTeacher } from '../apps/media/test/synthetic-teacher.ts';
import { answerTo, offerOf } from '../apps/media/test/werift-clients.ts';
import {
  httpsRequest,
  selfSignedCertificate,
  spkiHash,
  startApiServers,
  startCoturn,
  startMedia,
  startNginx,
  stop,
  stopServer,
  tempDir,
} from './test/platform.ts';
import { connectionsReport, relayFigures, relayOnly } from './test/relay-only.ts';
import { turnAllocate } from './test/turn-allocate.ts';

const has = (command: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const missing = [
  ...['nginx', 'turnserver', 'openssl'].filter((command) => !has(command)),
  ...((await postgresAvailable()) ? [] : ['PostgreSQL']),
  ...((await redisAvailable(REDIS_URL)) ? [] : ['Redis']),
];
if (missing.length > 0 && process.env.CI === 'true')
  throw new Error(`CI=true: missing ${missing.join(', ')}`);
if (missing.length > 0) console.warn(`topology.test.ts: SKIPPED, missing ${missing.join(', ')}`);

/** The demo class of demo teacher 1001, which demo students 2001-2006 are enrolled in. */
const DEMO_CLASS = '처음 만나는 타입스크립트';
const TURN_USER = 'sea';
const TURN_PASSWORD = 'topology-test-password';
const SECRET = (c: string) => c.repeat(40);

const children: ChildProcess[] = [];
const apis: ServerProcess[] = [];
const cleanups: (() => Promise<unknown> | unknown)[] = [];
let ca = '';
let ports: { https: number; http: number; api: [number, number]; media: number; turn: number; turns: number };
let site = '';
let certificate = '';
/** The built web app when Chromium is here (the browser journey through the proxy needs it). */
const browserJourney = missing.length === 0 && chromiumAvailable();

/** An envelope's data from the API through the proxy. */
async function api<T>(path: string, token: string): Promise<T> {
  const response = await httpsRequest(`${site}${path}`, ca, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.body}`);
  return (JSON.parse(response.body) as { data: T }).data;
}

/** The dev login over HTTPS through the proxy, as a browser does it (authorize, then the callback). */
async function login(kakaoId: string): Promise<TokenPair> {
  const query = new URLSearchParams({
    redirect_uri: `${site}/oauth/kakao/callback`,
    state: 's',
    kakao_id: kakaoId,
  });
  const authorize = await httpsRequest(`${site}/api/auth/dev/authorize?${query}`, ca);
  expect(authorize.status).toBe(302);
  const code = new URL(String(authorize.headers.location)).searchParams.get('code') ?? '';
  const tokens = await httpsRequest(`${site}/api/auth/kakao/callback?code=${encodeURIComponent(code)}`, ca);
  return TokenPairSchema.parse(JSON.parse(tokens.body));
}

/**
 * Waits until `student` has decoded more than 30 frames of the teacher's webcam; when it does not within 45 s,
 * the failure says what each page's connections did (states, packets, keyframe requests).
 */
async function decodes(student: Page, teacher?: Page) {
  try {
    await expect
      .poll(async () => (await relayFigures(student)).reduce((sum, f) => sum + f.framesDecoded, 0), {
        timeout: 45_000,
      })
      .toBeGreaterThan(30);
  } catch (error) {
    const reports = [`student:\n${await connectionsReport(student)}`];
    if (teacher) reports.push(`teacher:\n${await connectionsReport(teacher)}`);
    throw new Error(`${(error as Error).message}\n${reports.join('\n')}`, { cause: error });
  }
}

let classId = 0;
let teacherSocket: Socket | null = null;
let teacherPublishing = false;
/** Whether the Chromium teacher's webcam is on air (the TURN-only students below watch it). */
let browserTeacherLive = false;
/** The Chromium teacher's and first student's pages, kept open for the restart of the media service. */
let browserRoom: { teacher: Page; student: Page } | null = null;
/** The media service (stopped and started again by the last test) and how it was started. */
let media: { child: ChildProcess; env: Record<string, string> } | null = null;

/**
 * A person in their own Chromium (the app keeps one login per profile), trusting only this test's certificate
 * (for HTTPS and for TURN over TLS alike), on relays only; `urls` narrows the TURN servers (see relayOnly).
 */
async function openAs(kakaoId: string, urls = '') {
  const flags = [...FAKE_MEDIA_FLAGS, `--ignore-certificate-errors-spki-list=${spkiHash(certificate)}`];
  const browser: JourneyBrowser = await launchChromium(flags);
  cleanups.push(() => browser.close());
  await relayOnly(browser.context, urls);
  const page = await browser.newPage();
  await loginThroughDev(page, site, kakaoId);
  return page;
}

/** A live-media signalling connection through the proxy (wss /server) with a fresh ticket of `token`'s user. */
async function liveSocket(token: string): Promise<Socket> {
  const { ticket } = await api<LiveTicket>(`/api/classes/${classId}/live-ticket`, token);
  const socket: Socket = io(site, {
    path: LIVE_SOCKET_PATH,
    transports: ['websocket'],
    auth: { ticket },
    reconnection: false,
    forceNew: true,
    ca,
  });
  cleanups.push(() => socket.disconnect());
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
  return socket;
}

/** A request's data over signalling, or a thrown error naming the refusal. */
async function ask<T>(socket: Socket, name: string, payload: object = {}): Promise<T> {
  const answer = (await socket.timeout(10_000).emitWithAck(name, payload)) as LiveAnswer<T>;
  if ('error' in answer) throw new Error(`${name}: ${answer.error.code} ${answer.error.message}`);
  return answer.data;
}

/** A bare STOMP 1.2 client over `ws` (which takes the test's CA for wss). */
class Stomp {
  readonly frames: { command: string; headers: Record<string, string>; body: string }[] = [];
  readonly socket: WebSocket;
  #buffer = '';

  constructor(url: string) {
    this.socket = new WebSocket(url, { ca });
    this.socket.on('message', (data: Buffer) => {
      this.#buffer += data.toString('utf8');
      let end: number;
      while ((end = this.#buffer.indexOf('\0')) >= 0) {
        const raw = this.#buffer.slice(0, end).replace(/^\n+/, '');
        this.#buffer = this.#buffer.slice(end + 1);
        const [head = '', ...rest] = raw.split('\n\n');
        const [command = '', ...lines] = head.split('\n');
        const headers = Object.fromEntries(
          lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]),
        );
        this.frames.push({ command, headers, body: rest.join('\n\n') });
      }
    });
    cleanups.push(() => this.socket.close());
  }

  async open(token: string): Promise<void> {
    await new Promise((resolve, reject) => {
      this.socket.once('open', resolve);
      this.socket.once('error', reject);
    });
    this.send('CONNECT', {
      'accept-version': '1.2',
      host: '127.0.0.1',
      Authorization: `Bearer ${token}`,
      'heart-beat': '0,0',
    });
    await this.next('CONNECTED');
  }

  send(command: string, headers: Record<string, string>, body = ''): void {
    const lines = Object.entries(headers).map(([key, value]) => `${key}:${value}`);
    this.socket.send(`${command}\n${lines.join('\n')}\n\n${body}\0`);
  }

  async next(command: string, match: (frame: Stomp['frames'][number]) => boolean = () => true) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const frame = this.frames.find((f) => f.command === command && match(f));
      if (frame) return frame;
      const error = this.frames.find((f) => f.command === 'ERROR');
      if (error) throw new Error(`STOMP ERROR: ${error.headers.message}`);
      if (Date.now() > deadline) throw new Error(`no ${command} frame`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe.skipIf(missing.length > 0)('the production topology on loopback', () => {
  beforeAll(async () => {
    const dir = tempDir();
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    ports = {
      https: await freePort(),
      http: await freePort(),
      api: [await freePort(), await freePort()],
      media: await freePort(),
      turn: await freePort(),
      turns: await freePort(),
    };
    site = `https://127.0.0.1:${ports.https}`;
    const { cert, key } = selfSignedCertificate(dir);
    ca = fs.readFileSync(cert, 'utf8');
    certificate = cert;
    const database = await createTestDatabase();
    cleanups.push(database.drop);
    // 40 ports each for coturn's relays and the SFU: every browser's connection holds a relay of each transport
    // (UDP, TCP, TLS) until it closes, and every student a port of the SFU.
    const relayBase = 42_000 + Math.floor(Math.random() * 50) * 40;
    const iceServers = JSON.stringify([
      {
        urls: [
          `turn:127.0.0.1:${ports.turn}?transport=udp`,
          `turn:127.0.0.1:${ports.turn}?transport=tcp`,
          `turns:127.0.0.1:${ports.turns}?transport=tcp`,
        ],
        username: TURN_USER,
        credential: TURN_PASSWORD,
      },
    ]);
    const shared = {
      DATABASE_URL: database.url,
      REDIS_URL,
      DATA_DIR: dir,
      JWT_SECRET: SECRET('j'),
      MEDIA_SECRET: SECRET('m'),
      PUBLIC_URL: site,
      MEDIA_URL: site,
      ICE_SERVERS: iceServers,
      TRUST_PROXY: '127.0.0.1',
      DEMO_DATA: 'true',
      WRITE_LIMITS: 'off',
      JOB_CONCURRENCY: '0',
      ...(browserJourney ? { WEB_DIST: buildWebOnce() } : {}),
    };
    apis.push(...(await startApiServers(shared, ports.api)));
    const mediaEnv = {
      ...shared,
      API_URL: `http://127.0.0.1:${ports.api[0]}`,
      MEDIA_ANNOUNCED_IP: '127.0.0.1',
      MEDIA_PORT_RANGE: `${relayBase + 3000}-${relayBase + 3039}`,
      // One forwarding thread, as a deployed node forwards (its bundle's worker file, not only the main one).
      MEDIA_WORKERS: '1',
      LOG_LEVEL: 'warn',
    };
    media = { child: await startMedia(mediaEnv, ports.media), env: mediaEnv };
    cleanups.push(() => (media ? stop(media.child) : undefined));
    const values = {
      SEA_DOMAIN: '127.0.0.1',
      SEA_HTTP_LISTEN: `127.0.0.1:${ports.http}`,
      SEA_HTTPS_LISTEN: `127.0.0.1:${ports.https}`,
      SEA_CERT: cert,
      SEA_KEY: key,
      SEA_API_1: `127.0.0.1:${ports.api[0]}`,
      SEA_API_2: `127.0.0.1:${ports.api[1]}`,
      SEA_MEDIA: `127.0.0.1:${ports.media}`,
      SEA_TURN_LISTEN_IP: '127.0.0.1',
      SEA_TURN_PORT: String(ports.turn),
      SEA_TURNS_PORT: String(ports.turns),
      SEA_TURN_EXTERNAL_IP: '127.0.0.1',
      SEA_TURN_RELAY_IP: '127.0.0.1',
      SEA_TURN_MIN_PORT: String(relayBase),
      SEA_TURN_MAX_PORT: String(relayBase + 39),
      SEA_TURN_USER: TURN_USER,
      SEA_TURN_PASSWORD: TURN_PASSWORD,
    };
    children.push(await startNginx(dir, values, ports.https));
    // Loopback peers: the SFU of this test listens on 127.0.0.1 (coturn refuses to relay to loopback unless
    // told); a production SFU has a real address. No persistent user database either.
    children.push(
      await startCoturn(
        dir,
        values,
        ['allow-loopback-peers', `userdb=${dir}/turndb`, `pidfile=${dir}/turn.pid`],
        ports.turn,
      ),
    );
  });

  afterAll(async () => {
    for (const child of children.reverse()) await stop(child);
    for (const server of apis) await stopServer(server, 'SIGTERM');
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('serves HTTPS with the certificate, redirects HTTP, and is ready once the media node reported', async () => {
    const health = await httpsRequest(`${site}/health`, ca);
    expect(health).toMatchObject({ status: 200, body: 'OK' });
    const plain = await fetch(`http://127.0.0.1:${ports.http}/list`, { redirect: 'manual' });
    expect(plain.status).toBe(301);
    expect(plain.headers.get('location')).toBe(`https://127.0.0.1/list`);
    let ready: Readiness | null = null;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const response = await httpsRequest(`${site}/ready`, ca);
      ready = JSON.parse(response.body) as Readiness;
      if (response.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // The API server tells its folders' free space too (never a reason to be unready).
    expect(ready).toEqual({
      ready: true,
      checks: { database: 'up', redis: 'up', media: 'up' },
      space: expect.any(Object),
    });
  });

  it('keeps /metrics off the proxy, and believes X-Forwarded-For from the proxy only (TRUST_PROXY)', async () => {
    expect((await httpsRequest(`${site}/metrics`, ca)).status).toBe(404);
    const direct = `http://127.0.0.1:${ports.api[0]}/metrics`;
    expect((await fetch(direct)).status).toBe(200);
    // From the trusted proxy's address, naming a caller elsewhere: that caller is judged, and refused.
    expect((await fetch(direct, { headers: { 'x-forwarded-for': '203.0.113.5' } })).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${ports.media}/metrics`)).status).toBe(200);
  });

  it('logs in over HTTPS and chats over wss through the proxy; both API servers deliver (Redis fan-out)', async () => {
    const teacher = await login('1001');
    const student = await login('2001');
    const created = await api<ClassItem[]>('/api/classes?target=created', teacher.accessToken);
    const classId = created.find((item) => item.name === DEMO_CLASS)?.id ?? 0;
    expect(classId).toBeGreaterThan(0);

    const listeners = await Promise.all(
      ports.api.map(async (port) => {
        const client = new Stomp(`ws://127.0.0.1:${port}${CHAT_ENDPOINT}`);
        await client.open(student.accessToken);
        client.send('SUBSCRIBE', { id: 'sub-0', destination: chatTopic(classId), receipt: 'subscribed' });
        await client.next('RECEIPT');
        return client;
      }),
    );
    const writer = new Stomp(`wss://127.0.0.1:${ports.https}${CHAT_ENDPOINT}`);
    await writer.open(teacher.accessToken);
    const content = `프록시 너머 안녕하세요 ${Date.now()}`;
    writer.send(
      'SEND',
      { destination: CHAT_SEND_DESTINATION, 'content-type': 'application/json', receipt: 'sent' },
      JSON.stringify({ roomId: classId, content }),
    );
    await writer.next('RECEIPT');
    for (const listener of listeners) {
      const message = await listener.next('MESSAGE', (frame) => frame.body.includes(content));
      expect(JSON.parse(message.body)).toMatchObject({ roomId: classId, content });
    }
  });

  it('opens a lecture over socket.io through the proxy (wss /server): the class goes live', async () => {
    const teacher = await login('1001');
    const created = await api<ClassItem[]>('/api/classes?target=created', teacher.accessToken);
    classId = created.find((item) => item.name === DEMO_CLASS)?.id ?? 0;
    const socket = await liveSocket(teacher.accessToken);
    teacherSocket = socket;
    const started = (await socket.timeout(10_000).emitWithAck('startRoom', {})) as LiveAnswer<unknown>;
    expect('data' in started).toBe(true);
    const live = await api<{ active: boolean }>(`/api/classes/${classId}/isActive`, teacher.accessToken);
    expect(live.active).toBe(true);
    const capabilities = (await socket
      .timeout(10_000)
      .emitWithAck('getRouterRtpCapabilities', {})) as LiveAnswer<{
      iceServers: { urls: string | string[] }[];
    }>;
    // Browsers are given the TURN servers of ICE_SERVERS: UDP, TCP and TLS.
    expect('data' in capabilities && capabilities.data.iceServers[0]?.urls).toEqual([
      `turn:127.0.0.1:${ports.turn}?transport=udp`,
      `turn:127.0.0.1:${ports.turn}?transport=tcp`,
      `turns:127.0.0.1:${ports.turns}?transport=tcp`,
    ]);
  });

  it.each(['udp', 'tcp', 'tls'] as const)(
    'coturn relays over %s with the configured credentials',
    async (transport) => {
      const port = transport === 'tls' ? ports.turns : ports.turn;
      const relayed = await turnAllocate({
        transport,
        host: '127.0.0.1',
        port,
        username: TURN_USER,
        password: TURN_PASSWORD,
        ca,
      });
      expect(relayed.ip).toBe('127.0.0.1');
      await expect(
        turnAllocate({ transport, host: '127.0.0.1', port, username: TURN_USER, password: 'wrong', ca }),
      ).rejects.toThrow(/401/);
    },
  );
  it.each(['udp', 'tcp'] as const)(
    "a student told to use relays only receives the teacher's webcam through coturn over %s",
    async (transport) => {
      const host = teacherSocket;
      if (!host) throw new Error('the lecture did not start');
      // The teacher publishes as the browser does (simulcast VP8 and Opus), on loopback.
      if (!teacherPublishing) {
        const teacher = new SyntheticTeacher(1_000);
        cleanups.push(() => teacher.close());
        const { transportId } = await ask<{ transportId: string }>(host, 'createProducerTransport');
        const { sdp } = await ask<{ sdp: string }>(host, 'connectProducerTransport', {
          transportId,
          sdp: await offerOf(teacher.pc),
        });
        await teacher.accept(sdp);
        teacher.start(30);
        await ask(host, 'produce', {
          transportId,
          producerKind: 'webcamVideo',
          mid: teacher.video.mid ?? '',
        });
        await ask(host, 'produce', {
          transportId,
          producerKind: 'webcamAudio',
          mid: teacher.audio.mid ?? '',
        });
        teacherPublishing = true;
      }

      const student = await login(transport === 'udp' ? '2001' : '2002');
      const socket = await liveSocket(student.accessToken);
      const { iceServers } = await ask<{
        iceServers: { urls: string | string[]; username?: string; credential?: string }[];
      }>(socket, 'getRouterRtpCapabilities');
      await ask(socket, 'joinRoom');
      const { transportId } = await ask<{ transportId: string }>(socket, 'createConsumerTransport');
      const offer = await ask<{ sdp: string; consumers: { consumerId: string; producerKind: string }[] }>(
        socket,
        'consume',
        { transportId },
      );
      // What the server handed out, narrowed to this transport; relay candidates only, as
      // `iceTransportPolicy: 'relay'` makes a browser do.
      const server = iceServers[0];
      const urls = [server?.urls ?? []]
        .flat()
        .filter((url) => url.startsWith(`turn:`) && url.endsWith(`transport=${transport}`));
      expect(urls).toHaveLength(1);
      const pc = new RTCPeerConnection({
        iceServers: [{ urls: urls[0] ?? '', username: server?.username, credential: server?.credential }],
        iceTransportPolicy: 'relay',
        iceUseIpv6: false,
        iceInterfaceAddresses: { udp4: '127.0.0.1' },
        codecs: {
          audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2 })],
          video: [
            new RTCRtpCodecParameters({
              mimeType: 'video/VP8',
              clockRate: 90_000,
              rtcpFeedback: [useNACK(), usePLI(), useREMB()],
            }),
          ],
        },
        headerExtensions: { audio: [useSdesMid()], video: [useSdesMid(), useAbsSendTime()] },
      });
      cleanups.push(() => pc.close());
      const received = { video: [] as Buffer[], audio: 0 };
      pc.onTrack.subscribe((track) => {
        track.onReceiveRtp.subscribe((packet) => {
          if (track.kind === 'video') received.video.push(packet.payload);
          else received.audio += 1;
        });
      });
      const answer = await answerTo(pc, offer.sdp);
      expect(answer).toMatch(/a=candidate:\S+ \d+ (udp|UDP) \d+ 127\.0\.0\.1 \d+ typ relay/);
      expect(answer).not.toMatch(/typ host/);
      await ask(socket, 'connectConsumerTransport', { transportId, sdp: answer });
      for (const { consumerId } of offer.consumers) await ask(socket, 'resume', { consumerId });

      const deadline = Date.now() + 20_000;
      while ((received.video.length < 30 || received.audio < 10) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(received.video.length).toBeGreaterThanOrEqual(30);
      expect(received.audio).toBeGreaterThanOrEqual(10);
      // Video starts at a keyframe, so a decoder can show it.
      expect(isVp8KeyframeStart(received.video[0] ?? Buffer.alloc(0))).toBe(true);
      // The pair that carries the media: our relayed candidate to the SFU's address.
      const pair = pc.iceTransports[0]?.connection.nominated;
      expect(pair?.localCandidate.type).toBe('relay');
      expect(pair?.remoteCandidate.host).toBe('127.0.0.1');
    },
  );
  it.runIf(browserJourney)(
    "Chromium, relay only: a teacher's webcam reaches a student through coturn, and the chat works, over HTTPS through nginx",
    async () => {
      // The synthetic lecture of the tests above ends: its teacher leaves on purpose.
      teacherSocket?.disconnect();
      const teacherTokens = await login('1001');
      const deadline = Date.now() + 10_000;
      while (
        (await api<{ active: boolean }>(`/api/classes/${classId}/isActive`, teacherTokens.accessToken)).active
      ) {
        if (Date.now() > deadline) throw new Error('the synthetic lecture did not end');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const teacher = await openAs('1001');
      await teacher.goto(`${site}/live/teacher/${classId}`);
      await teacher.getByRole('heading', { name: DEMO_CLASS, level: 1 }).waitFor();
      const status = teacher.getByRole('status', { name: '연결 상태' });
      await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('연결됨');
      await teacher.getByRole('button', { name: '웹캠 켜기' }).click();
      await expect
        .poll(() => teacher.locator('[data-toggle="webcam"]').textContent(), { timeout: 30_000 })
        .toBe('송출 중');
      browserTeacherLive = true;

      const student = await openAs('2003');
      await student.goto(`${site}/live/student/${classId}`);
      await student.getByRole('heading', { name: DEMO_CLASS, level: 1 }).waitFor();
      await decodes(student, teacher);
      // Every connection of both browsers runs over a relayed candidate of coturn to the SFU.
      for (const page of [teacher, student]) {
        const figures = await relayFigures(page);
        expect(figures.length).toBeGreaterThan(0);
        for (const figure of figures) expect(figure.local).toBe('relay');
      }

      // The room's chat (STOMP over wss through nginx) carries the student's words to the teacher's page.
      const chatOf = (page: typeof student) => page.getByRole('region', { name: '채팅', exact: true });
      for (const page of [teacher, student]) {
        await chatOf(page).getByRole('status').filter({ hasText: '연결됨' }).waitFor({ timeout: 15_000 });
      }
      const words = `선생님 화면 잘 보여요 ${Date.now()}`;
      const box = chatOf(student).getByRole('textbox', { name: '보낼 메시지' });
      await box.fill(words);
      await box.press('Enter');
      await chatOf(teacher)
        .getByRole('list', { name: '채팅 메시지' })
        .getByText(words)
        .waitFor({ timeout: 15_000 });
      browserRoom = { teacher, student };
    },
    180_000,
  );
  it.runIf(browserJourney).each([
    { over: 'TLS', urls: '^turns:', relayProtocol: 'tls', kakaoId: '2004' },
    { over: 'TCP', urls: '^turn:.*transport=tcp$', relayProtocol: 'tcp', kakaoId: '2005' },
  ])(
    "Chromium given only TURN over $over receives the teacher's webcam through a $relayProtocol relay",
    async ({ urls, relayProtocol, kakaoId }) => {
      if (!browserTeacherLive) throw new Error("the Chromium teacher's webcam is not on air");
      const student = await openAs(kakaoId, urls);
      // The ICE servers the page's connections really got: the one URL kept, no other way out.
      await student.goto(`${site}/live/student/${classId}`);
      await student.getByRole('heading', { name: DEMO_CLASS, level: 1 }).waitFor();
      await decodes(student, browserRoom?.teacher);
      const figures = await relayFigures(student);
      expect(figures.length).toBeGreaterThan(0);
      for (const figure of figures) expect(figure).toMatchObject({ local: 'relay', relayProtocol });
      const servers = await student.evaluate(() =>
        ((window as unknown as Record<string, RTCPeerConnection[]>).__seaRelayOnlyConnections ?? []).map(
          (pc) => pc.getConfiguration().iceServers?.flatMap((server) => [server.urls].flat()) ?? [],
        ),
      );
      for (const kept of servers) {
        expect(kept).toHaveLength(1);
        expect(kept[0]).toMatch(new RegExp(urls));
      }
    },
    120_000,
  );
  it.runIf(browserJourney)(
    'restarting the media service: both pages say 잠시 후 다시 연결할게요, then the lecture comes back by itself',
    async () => {
      if (!browserRoom || !media) throw new Error('the Chromium lecture did not run');
      const { teacher, student } = browserRoom;
      const statusOf = (page: Page) => page.getByRole('status', { name: '연결 상태' });
      const decoded = async () => (await relayFigures(student)).reduce((sum, f) => sum + f.framesDecoded, 0);
      await stop(media.child); // SIGTERM, as systemctl restart sends
      expect(media.child.exitCode).toBe(0);
      for (const page of [teacher, student])
        await expect
          .poll(() => statusOf(page).textContent(), { timeout: 15_000 })
          .toBe('잠시 후 다시 연결할게요');
      // Down for a while: the pages keep waiting rather than ending the lecture.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await statusOf(student).textContent()).toBe('잠시 후 다시 연결할게요');
      expect(student.url()).toContain(`/live/student/${classId}`);

      media.child = await startMedia(media.env, ports.media);
      for (const page of [teacher, student])
        await expect.poll(() => statusOf(page).textContent(), { timeout: 60_000 }).toBe('연결됨');
      await expect
        .poll(() => teacher.locator('[data-toggle="webcam"]').textContent(), { timeout: 30_000 })
        .toBe('송출 중');
      // A new connection (the old one closed with the node): its frames count from zero.
      await expect.poll(decoded, { timeout: 45_000 }).toBeGreaterThan(30);
      const live = await api<{ active: boolean }>(
        `/api/classes/${classId}/isActive`,
        (await login('1001')).accessToken,
      );
      expect(live.active).toBe(true);
    },
    180_000,
  );
});
