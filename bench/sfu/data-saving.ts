// '데이터 절약 모드' (issue 34, item 6): the bytes one student receives per minute in the normal mode and in data
// saving, on loopback. One recorded teacher (real VP8 at Chrome's bitrates: webcam q/h/f, screen, two Opus
// streams) publishes to the media service in its own process; three werift students watch at once, so they
// see the same picture in the same window:
//   normal           every stream resumed, webcam quality `auto` (the default);
//   saving, material the webcam at `q`, the screen share's video paused on the SFU (a material on stage);
//   saving, no material  the webcam at `q`, the screen share received (nothing on stage).
// Counted at each student: the SRTP packets werift decrypts (RTP header, extensions, payload, tag) plus 28
// bytes of IPv4 and UDP per packet; RTCP left out. Not a test. See README.md ('데이터 절약 모드').
//
//   npm exec -- node bench/sfu/data-saving.ts [--runs 3] [--seconds 20] [--settle 10]
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { io, type Socket } from 'socket.io-client';
import type { RTCDtlsTransport } from 'werift';
import { LIVE_SOCKET_PATH, type ConsumerInfo, type LiveAnswer } from '@sea/contract/live';
import { SyntheticStudent } from '../../apps/media/test/synthetic-student.ts';
import { signTicket } from '../../apps/media/test/test-media-server.ts';
import { launchBenchBrowser } from './bench-browser.ts';
import { lines, round } from './processes.ts';
import { publishTeacher } from './publish-teacher.ts';
import { CHROME_LIKE_TRACKS, recordVp8 } from './vp8-recording.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '20' },
    settle: { type: 'string', default: '10' },
  },
});
const RUNS = Number(values.runs);
const WINDOW_SECONDS = Number(values.seconds);
const SETTLE_SECONDS = Number(values.settle);
for (const [name, value] of [
  ['--runs', RUNS],
  ['--seconds', WINDOW_SECONDS],
  ['--settle', SETTLE_SECONDS],
] as const) {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}는 0보다 큰 수여야 해요.`);
}
const RECORDING_SECONDS = 10;
/** IPv4 (20) and UDP (8) headers of each datagram. */
const IP_UDP_BYTES = 28;
const REQUEST_TIMEOUT_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Mode = 'normal' | 'saving, material' | 'saving, no material';
const MODES: Mode[] = ['normal', 'saving, material', 'saving, no material'];
/** Streams as the figures group them. */
const GROUPS = {
  webcam: ['webcamVideo'],
  screen: ['screenShareVideo'],
  audio: ['webcamAudio', 'screenShareAudio'],
};

/** A werift student in one mode, counting what reaches it. */
class CountingStudent {
  readonly student = new SyntheticStudent();
  readonly mode: Mode;
  consumers: ConsumerInfo[] = [];
  private socket: Socket | null = null;
  private bytes = 0;
  private packets = 0;

  constructor(mode: Mode) {
    this.mode = mode;
  }

  async join(url: string, sub: string): Promise<void> {
    this.socket = io(url, {
      path: LIVE_SOCKET_PATH,
      transports: ['websocket'],
      auth: { ticket: await signTicket({ role: 'student', sub }) },
      reconnection: false,
    });
    await this.ask('joinRoom');
    const { transportId } = await this.ask<{ transportId: string }>('createConsumerTransport');
    const offer = await this.ask<{ sdp: string; consumers: ConsumerInfo[] }>('consume', { transportId });
    await this.ask('connectConsumerTransport', { transportId, sdp: await this.student.answer(offer.sdp) });
    this.consumers = offer.consumers;
    await this.connected();
    this.count();
    // What StudentViewer asks for in this mode (the viewer's tests check that it does).
    for (const { consumerId, producerKind } of this.consumers) {
      if (this.mode !== 'normal' && producerKind === 'webcamVideo')
        await this.ask('setPreferredLayer', { consumerId, layer: 'q' });
      if (this.mode === 'saving, material' && producerKind === 'screenShareVideo') continue;
      await this.ask('resume', { consumerId });
    }
  }

  /** SRTP packets and bytes received so far (every stream of the bundle). */
  get totals(): { bytes: number; packets: number } {
    return { bytes: this.bytes, packets: this.packets };
  }

  /** Payload bytes received so far on the streams of `kinds`, and their packets. */
  streamTotals(kinds: string[]): { bytes: number; packets: number } {
    let bytes = 0;
    let packets = 0;
    for (const c of this.consumers.filter((c) => kinds.includes(c.producerKind))) {
      for (const p of this.student.packets(c.mid)) bytes += p.bytes;
      packets += this.student.packets(c.mid).length;
    }
    return { bytes, packets };
  }

  async close(): Promise<void> {
    this.socket?.disconnect();
    await this.student.close();
  }

  /** Waits for the student's DTLS to be up (its SRTP session exists from then on). */
  private async connected(): Promise<void> {
    const deadline = performance.now() + REQUEST_TIMEOUT_MS;
    while (this.student.pc.connectionState !== 'connected') {
      if (performance.now() > deadline)
        throw new Error(`${this.mode}: the student's connection did not come up`);
      await sleep(50);
    }
  }

  /** Counts every SRTP packet before werift decrypts it (one DTLS transport: the m-lines are bundled). */
  private count(): void {
    const seen = new Set<RTCDtlsTransport>();
    for (const transceiver of this.student.pc.getTransceivers()) {
      const dtls = transceiver.dtlsTransport;
      if (seen.has(dtls)) continue;
      seen.add(dtls);
      const decrypt = dtls.srtp.decrypt.bind(dtls.srtp);
      dtls.srtp.decrypt = (packet: Buffer) => {
        this.bytes += packet.length + IP_UDP_BYTES;
        this.packets += 1;
        return decrypt(packet);
      };
    }
  }

  private async ask<T = unknown>(name: string, payload: unknown = {}): Promise<T> {
    const socket = this.socket;
    if (!socket) throw new Error('not connected');
    const answer = (await socket.timeout(REQUEST_TIMEOUT_MS).emitWithAck(name, payload)) as LiveAnswer<T>;
    if ('error' in answer)
      throw new Error(`${this.mode} ${name}: ${answer.error.code} ${answer.error.message}`);
    return answer.data;
  }
}

const bench = await launchBenchBrowser();
const recording = await recordVp8(bench.browser, CHROME_LIKE_TRACKS, RECORDING_SECONDS);
await bench.close();

const media = spawn(process.execPath, [fileURLToPath(new URL('./media-process.ts', import.meta.url))], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
const url = await new Promise<string>((resolve) =>
  lines(media, (l) => l.startsWith('READY ') && resolve(l.slice(6))),
);
// The media process goes with this one, whatever happens below.
process.on('exit', () => media.kill('SIGTERM'));
const room = await publishTeacher(url, recording, false);
await sleep(2_000); // every layer arriving before the students

console.error(`recorded and published at ${Math.round(performance.now() / 1000)} s`);
const students = MODES.map((mode) => new CountingStudent(mode));
for (const [i, s] of students.entries()) await s.join(url, `data-saving-${i}`);
await sleep(SETTLE_SECONDS * 1000);

type Figures = { mode: Mode; total: number; webcam: number; screen: number; audio: number };
type Counts = {
  total: { bytes: number; packets: number };
  groups: Record<string, { bytes: number; packets: number }>;
};
const countsOf = (s: CountingStudent): Counts => ({
  total: s.totals,
  groups: Object.fromEntries(Object.entries(GROUPS).map(([g, kinds]) => [g, s.streamTotals(kinds)])),
});
/** kB per minute from bytes in the window. */
const perMinute = (bytes: number) => (bytes * 60) / WINDOW_SECONDS / 1000;
const kbps = (kBPerMinute: number) => Math.round((kBPerMinute * 8) / 60);

/** One student's figures in the window; each stream's share carries the packets' average overhead. */
function figuresOf(s: CountingStudent, start: Counts, end: Counts): Figures {
  const total = {
    bytes: end.total.bytes - start.total.bytes,
    packets: end.total.packets - start.total.packets,
  };
  const group = (g: string) => {
    const was = start.groups[g] ?? { bytes: 0, packets: 0 };
    const now = end.groups[g] ?? { bytes: 0, packets: 0 };
    return { bytes: now.bytes - was.bytes, packets: now.packets - was.packets };
  };
  const payload = Object.keys(GROUPS).reduce((sum, g) => sum + group(g).bytes, 0);
  const overhead = total.packets === 0 ? 0 : (total.bytes - payload) / total.packets;
  const share = (g: string) => perMinute(group(g).bytes + group(g).packets * overhead);
  return {
    mode: s.mode,
    total: perMinute(total.bytes),
    webcam: share('webcam'),
    screen: share('screen'),
    audio: share('audio'),
  };
}

const runs: { loadAverage: number; figures: Figures[] }[] = [];
for (let run = 0; run < RUNS; run += 1) {
  const loadAverage = round(os.loadavg()[0] ?? NaN, 2);
  const before = students.map(countsOf);
  await sleep(WINDOW_SECONDS * 1000);
  const figures = students.map((s, i) => figuresOf(s, before[i] ?? countsOf(s), countsOf(s)));
  runs.push({ loadAverage, figures });
  console.log(`run ${run + 1} of ${RUNS}, ${WINDOW_SECONDS} s window, load average ${loadAverage}:`);
  for (const f of figures) {
    console.log(
      `  ${f.mode.padEnd(20)} ${(f.total / 1000).toFixed(2).padStart(6)} MB/min = ${kbps(f.total)} kbit/s ` +
        `(webcam ${Math.round(f.webcam)} kB/min = ${kbps(f.webcam)} kbit/s, screen ${Math.round(f.screen)} kB/min, ` +
        `audio ${Math.round(f.audio)} kB/min)`,
    );
  }
}

const normal = runs.map((r) => r.figures.find((f) => f.mode === 'normal')?.total ?? NaN);
for (const mode of MODES.slice(1)) {
  const saving = runs.map((r) => r.figures.find((f) => f.mode === mode)?.total ?? NaN);
  const ratios = saving.map((v, i) => v / (normal[i] ?? NaN));
  console.log(
    `${mode}: ${saving.map((v) => (v / 1000).toFixed(2)).join(', ')} MB/min against normal ` +
      `${normal.map((v) => (v / 1000).toFixed(2)).join(', ')}: ` +
      `${ratios.map((r) => `${Math.round(r * 100)}%`).join(', ')} of the normal mode`,
  );
}
console.log(`teacher: ${room.teacher.plis} keyframes on request over the whole bench`);

console.error(`closing at ${Math.round(performance.now() / 1000)} s`);
for (const s of students) await s.close();
await room.close();
const exited = new Promise((resolve) => media.once('exit', resolve));
media.kill('SIGTERM');
await exited;
console.error(`closed at ${Math.round(performance.now() / 1000)} s`);
// werift's and socket.io's timers would keep the process alive a while longer.
process.exit(0);
