// SFU benchmark: one synthetic teacher (werift, the four streams: webcam with three simulcast layers,
// microphone, screen, system audio) and N synthetic students (werift, in worker processes) against a media
// service in its own process, all on loopback. Prints, per N: the media process's CPU, CPU per student and
// students per core, packet loss at the students, and the time from joinRoom to the first forwarded keyframe.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { io } from 'socket.io-client';
import { LIVE_SOCKET_PATH, type LiveAnswer } from '@sea/contract/live';
import { SyntheticTeacher } from '../../apps/media/test/synthetic-teacher.ts';
import { signTicket } from '../../apps/media/test/test-media-server.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i] ?? '', process.argv[i + 1] ?? '');
const counts = (args.get('--students') ?? '50,100,200').split(',').map(Number);
const seconds = Number(args.get('--seconds') ?? '10');
const perProcess = Number(args.get('--per-process') ?? '25');
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function lines(child: ChildProcess, onLine: (line: string) => void): void {
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      onLine(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function run(students: number) {
  const media = spawn(
    process.execPath,
    [
      ...(process.env.SFU_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/sfu-prof'] : []),
      here('./media-process.ts'),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = await new Promise<string>((resolve) =>
    lines(media, (l) => l.startsWith('READY ') && resolve(l.slice(6))),
  );
  const pid = media.pid ?? 0;

  const socket = io(url, {
    path: LIVE_SOCKET_PATH,
    transports: ['websocket'],
    auth: { ticket: await signTicket({ role: 'teacher' }) },
  });
  const ask = async <T>(name: string, payload: unknown = {}) => {
    const answer = (await socket.timeout(30_000).emitWithAck(name, payload)) as LiveAnswer<T>;
    if ('error' in answer) throw new Error(`${name}: ${answer.error.code}`);
    return answer.data;
  };
  let viewers = 0;
  socket.on('viewerCount', ({ count }: { count: number }) => (viewers = count));
  const teacher = new SyntheticTeacher(1_000, { screen: true });
  await ask('startRoom');
  const { transportId } = await ask<{ transportId: string }>('createProducerTransport');
  const { sdp } = await ask<{ sdp: string }>('connectProducerTransport', {
    transportId,
    sdp: await teacher.offer(),
  });
  await teacher.accept(sdp);
  teacher.start(30);
  const kinds = [
    ['webcamVideo', teacher.video],
    ['webcamAudio', teacher.audio],
    ['screenShareVideo', teacher.screen],
    ['screenShareAudio', teacher.systemAudio],
  ] as const;
  for (const [producerKind, transceiver] of kinds) {
    await ask('produce', { transportId, producerKind, mid: transceiver?.mid ?? '' });
  }

  const workers: Promise<
    { firstKeyframeMs: number | null; streams: Record<string, { received: number; lost: number }> }[]
  >[] = [];
  for (let first = 0; first < students; first += perProcess) {
    const size = Math.min(perProcess, students - first);
    const worker = spawn(
      process.execPath,
      [here('./student-worker.ts'), url, String(size), String(first), String(seconds)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    workers.push(
      new Promise((resolve) =>
        lines(worker, (l) => l.startsWith('RESULT ') && resolve(JSON.parse(l.slice(7)))),
      ),
    );
  }
  const joinStart = performance.now();
  while (viewers < students && performance.now() - joinStart < 120_000) await sleep(100);
  const joinedMs = performance.now() - joinStart;
  const joinedCount = viewers;
  await sleep(1_000);
  const window = Math.max(2, seconds - 3);
  const cpuBefore = cpuSeconds(pid);
  await sleep(window * 1000);
  const cpu = (cpuSeconds(pid) - cpuBefore) / window;
  const results = (await Promise.all(workers)).flat();

  teacher.stop();
  socket.disconnect();
  await teacher.close();
  media.kill('SIGTERM');

  let received = 0;
  let lost = 0;
  for (const r of results) {
    for (const s of Object.values(r.streams)) {
      received += s.received;
      lost += s.lost;
    }
  }
  const firstFrames = results.map((r) => r.firstKeyframeMs).filter((v): v is number => v !== null);
  return {
    students,
    joined: joinedCount,
    joinSeconds: Number((joinedMs / 1000).toFixed(1)),
    cpuPercent: Number((cpu * 100).toFixed(1)),
    cpuPerStudentPercent: Number(((cpu * 100) / students).toFixed(3)),
    studentsPerCore: Math.round(students / Math.max(cpu, 1e-6)),
    lossPercent: Number(((100 * lost) / Math.max(1, received + lost)).toFixed(3)),
    withoutVideo: results.length - firstFrames.length,
    firstKeyframeP50Ms: Math.round(percentile(firstFrames, 50)),
    firstKeyframeP95Ms: Math.round(percentile(firstFrames, 95)),
  };
}

const table = [];
for (const n of counts) {
  const row = await run(n);
  console.log(JSON.stringify(row));
  table.push(row);
}
console.table(table);
process.exit(0);
