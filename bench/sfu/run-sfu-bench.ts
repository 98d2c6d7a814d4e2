// SFU benchmark: one recorded teacher (werift replaying real VP8 at Chrome's bitrates: webcam with three
// simulcast layers, microphone, screen, system audio) and N light students (werift ICE + DTLS, RTP counted from
// clear headers, in worker processes) against the media service in its own process, all on loopback. Per N:
// the media process's CPU, students per core, loss, joinRoom → first forwarded keyframe (with its steps), and
// joinRoom → first decoded frame for Chromium students joining the loaded room. `--server janus` (or `both`,
// alternating per N) measures Janus's VideoRoom with the same teacher and students. See README.md.
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { defaultWorkers } from '../../apps/media/src/config.ts';
import { signTicket } from '../../apps/media/test/test-media-server.ts';
import { launchBenchBrowser, type BrowserTimings } from './bench-browser.ts';
import { janusVersion, startJanus } from './janus-server.ts';
import { cpuTimes, lines, percentile, round } from './processes.ts';
import { publishTeacherJanus } from './publish-teacher-janus.ts';
import { publishTeacher } from './publish-teacher.ts';
import { startStudentWorkers, type StudentResult, type StudentTarget } from './student-workers.ts';
import { CHROME_LIKE_TRACKS, recordVp8 } from './vp8-recording.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i] ?? '', process.argv[i + 1] ?? '');
const option = (name: string, fallback: string) => args.get(`--${name}`) ?? fallback;
const counts = option('students', '50,100,200').split(',').map(Number);
const windowSeconds = Number(option('seconds', '10'));
const settleSeconds = Number(option('settle', '15'));
const perProcess = Number(option('per-process', '50'));
const joinRate = Number(option('join-rate', '20'));
const browserJoins = Number(option('browser-students', '5'));
// Forwarding worker threads of the media service: as `npm start` runs it unless given.
const mediaWorkers = Number(option('workers', String(defaultWorkers())));
// The session recorded (as by default) or not: `--record off` measures what recording costs.
const record = option('record', 'on') !== 'off';
// Which SFU: ours, Janus's VideoRoom, or both (ours then Janus at each N).
const serverOption = option('server', 'ours');
if (!['ours', 'janus', 'both'].includes(serverOption)) throw new Error('--server is ours, janus or both');
const servers = (serverOption === 'both' ? ['ours', 'janus'] : [serverOption]) as Server[];
type Server = 'ours' | 'janus';
const RECORDING_SECONDS = 10;
const JOIN_TIMEOUT_MS = 120_000;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Media only on loopback: inside a network namespace of our own (only `lo`) when this process may create one,
// as the Chromium media test does. Otherwise every address is 127.0.0.1 anyway.
if (process.env.SEA_NETNS !== '1' && spawnSync('unshare', ['--net', 'true']).status === 0) {
  const run = spawnSync(
    'unshare',
    [
      '--net',
      'sh',
      '-c',
      'ip link set lo up && SEA_NETNS=1 exec "$@"',
      'sh',
      process.execPath,
      ...process.argv.slice(1),
    ],
    { stdio: 'inherit' },
  );
  process.exit(run.status ?? 1);
}
if (process.env.SEA_NETNS !== '1') console.warn('(no network namespace: running on 127.0.0.1 only)');
if (servers.includes('janus')) {
  try {
    console.log(janusVersion());
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}

const bench = await launchBenchBrowser();
const recording = await recordVp8(bench.browser, CHROME_LIKE_TRACKS, RECORDING_SECONDS);

/** The server under test with the teacher publishing: its process (for CPU time) and where students join. */
type UnderTest = {
  pid: number;
  target: StudentTarget;
  teacher: Awaited<ReturnType<typeof publishTeacher>>['teacher'];
  /** Students the server counts as joined, when it tells. */
  viewers: (() => number) | null;
  close(): Promise<void>;
};

async function startOurs(): Promise<UnderTest> {
  const media = spawn(
    process.execPath,
    [
      ...(process.env.SFU_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/sfu-prof'] : []),
      ...(process.env.SFU_PERF ? ['--perf-basic-prof'] : []),
      here('./media-process.ts'),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MEDIA_WORKERS: String(mediaWorkers) } },
  );
  const url = await new Promise<string>((resolve) =>
    lines(media, (l) => l.startsWith('READY ') && resolve(l.slice(6))),
  );
  const room = await publishTeacher(url, recording, record);
  return {
    pid: media.pid ?? 0,
    target: { server: 'ours', url },
    teacher: room.teacher,
    viewers: room.viewers,
    async close() {
      await room.close();
      const exited = new Promise((resolve) => media.once('exit', resolve));
      media.kill('SIGTERM');
      await exited;
    },
  };
}

async function startJanusUnderTest(): Promise<UnderTest> {
  const janus = await startJanus();
  const room = await publishTeacherJanus(janus.url, recording);
  return {
    pid: janus.process.pid ?? 0,
    target: { server: 'janus', ...room.target },
    teacher: room.teacher,
    viewers: null,
    async close() {
      await room.close();
      await janus.close();
    },
  };
}

async function run(server: Server, students: number) {
  const loadAverage = os.loadavg()[0] ?? NaN;
  const underTest = server === 'janus' ? await startJanusUnderTest() : await startOurs();
  const mediaPid = underTest.pid;
  const room = { teacher: underTest.teacher };
  await sleep(2_000); // every layer arriving before the first student

  const joinStart = performance.now();
  const workers = startStudentWorkers(
    underTest.target,
    students,
    perProcess,
    joinRate > 0 ? 1000 / joinRate : 0,
  );
  await Promise.race([workers.joined, sleep(JOIN_TIMEOUT_MS)]);
  const joinSeconds = (performance.now() - joinStart) / 1000;
  const viewers = underTest.viewers?.() ?? null;

  await sleep(settleSeconds * 1000);
  workers.mark();
  const before = { media: cpuTimes(mediaPid), load: workers.cpuSeconds() };
  const sentBefore = new Map(room.teacher.sent);
  await sleep(windowSeconds * 1000);
  const after = cpuTimes(mediaPid);
  const systemCpu = (after.system - before.media.system) / windowSeconds;
  const cpu = (after.user - before.media.user) / windowSeconds + systemCpu;
  const loadCpu = (workers.cpuSeconds() - before.load) / windowSeconds;
  workers.mark();
  // What the teacher sent per second in the window; a student on the top layer should get f + screen + audio.
  const sentRate = (stream: string) =>
    ((room.teacher.sent.get(stream) ?? 0) - (sentBefore.get(stream) ?? 0)) / windowSeconds;
  const topLayerRate = ['f', 'screen', 'webcamAudio', 'screenShareAudio'].reduce(
    (sum, k) => sum + sentRate(k),
    0,
  );

  // Browser students join the loaded room one after another (after the CPU window: Chromium decoding shares
  // the machine's cores). Only against ours: they run the web app's own client.
  const browserTimings: BrowserTimings[] = [];
  for (let i = 0; server === 'ours' && i < browserJoins; i += 1) {
    const { url } = underTest.target as { url: string };
    const ticket = await signTicket({ role: 'student', sub: `browser-${i}` });
    browserTimings.push(await bench.measureStudent(url, ticket));
  }

  const results = await workers.report();
  const plis = room.teacher.plis;
  const teacherConnected = room.teacher.pc.connectionState === 'connected';
  await underTest.close();

  const all = results.students;
  let windowReceived = 0;
  let windowLost = 0;
  let webcamWindow = 0;
  for (const s of all) {
    for (const [kind, stream] of Object.entries(s.streams)) {
      windowReceived += stream.windowReceived;
      windowLost += stream.windowLost;
      if (kind === 'webcamVideo') webcamWindow += stream.windowReceived;
    }
  }
  const steps = (key: keyof StudentResult['timings']) =>
    all.map((s) => s.timings[key]).filter((v): v is number => v !== null);
  const keyframes = steps('keyframe');
  const browser = (key: keyof BrowserTimings) =>
    browserTimings.map((t) => t[key]).filter((v): v is number => typeof v === 'number');
  return {
    server,
    students,
    workers: server === 'ours' ? mediaWorkers : null,
    record,
    loadAverage: round(loadAverage, 2),
    joined: viewers ?? all.length,
    failedJoins: results.failures,
    joinSeconds: round(joinSeconds, 1),
    cpuPercent: round(cpu * 100, 1),
    /** Of that, in the kernel (on loopback a send also does the receiving side's work). */
    systemCpuPercent: round(systemCpu * 100, 1),
    studentsPerCore: Math.round(students / Math.max(cpu, 1e-6)),
    loadGeneratorCpuPercent: round(loadCpu * 100, 1),
    lossPercent: round((100 * windowLost) / Math.max(1, windowReceived + windowLost), 3),
    webcamPacketsPerStudentSecond: Math.round(webcamWindow / Math.max(1, all.length) / windowSeconds),
    packetsPerStudentSecond: Math.round(windowReceived / Math.max(1, all.length) / windowSeconds),
    topLayerPacketsPerSecond: Math.round(topLayerRate),
    teacherConnected,
    withoutVideo: all.length - keyframes.length,
    disconnected: all.filter((s) => !s.connected).length,
    /** Of the students, how many never completed ICE, and how many completed ICE but never DTLS. */
    neverConnected: {
      ice: all.filter((s) => s.timings.ice === null).length,
      dtls: all.filter((s) => s.timings.ice !== null && s.timings.dtls === null).length,
    },
    teacherKeyframes: plis,
    audioDelayP95Ms: percentile(
      all.map((s) => s.audioDelayMs.p95).filter((v): v is number => v !== null),
      95,
    ),
    firstKeyframeP50Ms: percentile(keyframes, 50),
    firstKeyframeP95Ms: percentile(keyframes, 95),
    stepsP50Ms: {
      answered: percentile(steps('answered'), 50),
      ice: percentile(steps('ice'), 50),
      dtls: percentile(steps('dtls'), 50),
      keyframe: percentile(keyframes, 50),
    },
    browserFirstFrameMs: browser('firstFrame'),
    browserFirstDecodedMs: browser('firstDecoded'),
    browserConnectedMs: browser('connected'),
    browserWebcam: browserTimings.map((t) => t.webcam),
    browserSteps: browserTimings.map((t) => t.steps),
  };
}

const table = [];
for (const n of counts) {
  for (const server of servers) {
    const row = await run(server, n);
    console.log(JSON.stringify(row));
    table.push(row);
  }
}
await bench.close();
console.table(
  table.map((row) => ({
    server: row.server,
    students: row.students,
    workers: row.workers ?? '',
    record: row.server === 'janus' ? '' : row.record ? 'on' : 'off',
    'load avg': row.loadAverage,
    'joined in s': row.joinSeconds,
    'SFU CPU %': row.cpuPercent,
    'students/core': row.studentsPerCore,
    'loss %': row.lossPercent,
    'queued ms p95': row.audioDelayP95Ms,
    'pkt/s per student': `${row.packetsPerStudentSecond} of ${row.topLayerPacketsPerSecond}`,
    'keyframe p50/p95 ms': `${row.firstKeyframeP50Ms} / ${row.firstKeyframeP95Ms}`,
    'browser first frame ms': row.browserFirstFrameMs.join(' '),
    'no video / disconnected': `${row.withoutVideo} / ${row.disconnected}${row.teacherConnected ? '' : ' (teacher too)'}`,
  })),
);
process.exit(0);
