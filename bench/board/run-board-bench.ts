// Board benchmark: a thousand students in one live class while the teacher draws without a pause.
//   npm exec -- node bench/board/run-board-bench.ts [--subscribers 1000] [--seconds 30] [--threads 2]
//     [--pieces-per-second 20] [--points-per-piece 6]
// The server is bench/chat's (its own process; BENCH_DATABASE=postgres and REDIS_URL as there).
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import {
  BOARD_INK_DESTINATION,
  BOARD_PAGE_DESTINATION,
  type BoardInk,
  WHITEBOARD_ID,
} from '@sea/contract/board';
import { frameText, stompFrame } from '../../apps/server/src/stomp/stomp-frame.ts';
import {
  cpuMs,
  cpuPercent,
  load,
  now,
  once,
  percentile,
  sleep,
  type Usage,
} from '../classroom/bench-parts.ts';
import { connectClient } from '../classroom/room-clients.ts';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '30' },
    threads: { type: 'string', default: '2' },
    'pieces-per-second': { type: 'string', default: '20' },
    'points-per-piece': { type: 'string', default: '6' },
  },
});
const SUBSCRIBERS = Number(values.subscribers);
const SECONDS = Number(values.seconds);
const THREADS = Math.max(1, Number(values.threads));
const PIECES_PER_SECOND = Number(values['pieces-per-second']);
const POINTS_PER_PIECE = Number(values['points-per-piece']);
/** A stroke lasts this many pieces (a second and a half at 20 a second). */
const PIECES_PER_STROKE = 30;

const server = fork(new URL('../chat/bench-server.ts', import.meta.url), {
  env: { ...process.env, BENCH_USERS: String(1 + SUBSCRIBERS), BENCH_LIVE: '1' },
  execPath: process.execPath,
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const { url, classId, tokens } = await once<{ url: string; classId: number; tokens: string[] }>(
  server,
  'ready',
);
const usage = (): Promise<Usage> => {
  const answer = once<Usage>(server, 'usage');
  server.send({ type: 'usage' });
  return answer;
};
const [teacherToken = '', ...studentTokens] = tokens;
const teacher = await connectClient(url, teacherToken);
const refusals: string[] = [];
teacher.onFrame = (frame) => {
  if (frame.command === 'MESSAGE') refusals.push(frameText(frame));
};
teacher.send(stompFrame('SUBSCRIBE', { id: 'errors', destination: '/user/queue/errors' }));
const page = { roomId: classId, materialId: WHITEBOARD_ID, page: 1 };
teacher.send(stompFrame('SEND', { destination: BOARD_PAGE_DESTINATION }, JSON.stringify(page)));

const workers = Array.from(
  { length: THREADS },
  (_unused, thread) =>
    new Worker(new URL('./board-worker.ts', import.meta.url), {
      workerData: { url, classId, tokens: studentTokens.filter((_, index) => index % THREADS === thread) },
    }),
);
await Promise.all(workers.map((worker) => once(worker, 'ready')));

/** The teacher draws for `seconds`: pieces at the set rate, strokes of a second and a half, a wavy line. */
async function draw(name: string, seconds: number, sent: Record<string, number>): Promise<number> {
  const started = now();
  let count = 0;
  let stroke = 0;
  let from = 0;
  while (now() - started < seconds * 1000) {
    const due = Math.floor(((now() - started) / 1000) * PIECES_PER_SECOND);
    while (count < due) {
      const last = from + POINTS_PER_PIECE >= PIECES_PER_STROKE * POINTS_PER_PIECE;
      const points = Array.from({ length: POINTS_PER_PIECE }, (_, index): [number, number, number] => {
        const t = (from + index) / (PIECES_PER_STROKE * POINTS_PER_PIECE);
        return [0.1 + 0.8 * t, 0.5 + 0.2 * Math.sin(t * 12 + stroke), 0.4 + 0.3 * Math.random()];
      });
      const strokeId = `${name}-${stroke}`;
      const ink: BoardInk = {
        ...page,
        strokeId,
        tool: 'pen',
        color: '#1c7ed6',
        width: 0.004,
        points,
        done: last,
      };
      sent[`${strokeId}:${from}`] = now();
      teacher.send(stompFrame('SEND', { destination: BOARD_INK_DESTINATION }, JSON.stringify(ink)));
      count += 1;
      from += POINTS_PER_PIECE;
      if (last) {
        stroke += 1;
        from = 0;
      }
    }
    await sleep(2);
  }
  return count;
}

type WorkerReport = { latencies: Float64Array; bytes: number[]; pieces: number[]; closed: number };
async function phase(name: string, seconds: number, report: boolean): Promise<void> {
  for (const worker of workers) worker.postMessage({ type: 'start' });
  const sent: Record<string, number> = {};
  const loadText = load();
  const before = await usage();
  const count = await draw(name, seconds, sent);
  // Until every student has every piece (at most 60 s): a backlog is measured, not cut off.
  for (let waited = 0; waited < 60_000; waited += 500) {
    const counts = await Promise.all(
      workers.map((worker) => {
        const answer = once<{ least: number }>(worker, 'count');
        worker.postMessage({ type: 'count' });
        return answer;
      }),
    );
    if (Math.min(...counts.map((each) => each.least)) >= count) break;
    await sleep(500);
  }
  const after = await usage();
  const reports = await Promise.all(
    workers.map((worker) => {
      const answer = once<WorkerReport & { type: string }>(worker, 'report');
      worker.postMessage({ type: 'report', sent });
      return answer;
    }),
  );
  if (!report) return;
  const latencies = reports.flatMap((each) => Array.from(each.latencies));
  const bytes = reports.flatMap((each) => each.bytes);
  const pieces = reports.flatMap((each) => each.pieces);
  const perMinute = (bytes.reduce((sum, each) => sum + each, 0) / bytes.length) * (60 / seconds);
  console.log(
    `${name}: ${count} pieces drawn (${PIECES_PER_SECOND}/s, ${POINTS_PER_PIECE} points each) to ${bytes.length} ` +
      `students; received per student min ${Math.min(...pieces)} max ${Math.max(...pieces)}; ` +
      `latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ` +
      `max ${percentile(latencies, 100).toFixed(1)} ms; ` +
      `${(perMinute / 1024).toFixed(0)} KiB per student per minute (${((perMinute * 8) / 60 / 1000).toFixed(1)} kbit/s); ` +
      `server cpu ${cpuPercent(before, after).toFixed(0)}% (${cpuMs(before, after).toFixed(0)} ms); ` +
      `closed ${reports.reduce((sum, each) => sum + each.closed, 0)}; refusals ${refusals.length} ${refusals.slice(0, 1).join('')}; ${loadText}`,
  );
}

await phase('warm-up', 3, false);
await phase('drawing', SECONDS, true);
for (const worker of workers) worker.postMessage({ type: 'stop' });
teacher.close();
server.send({ type: 'stop' });
