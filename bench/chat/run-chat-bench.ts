// Chat fan-out benchmark: N subscribers and M publishers in one class on one server process.
//   npm exec -- node bench/chat/run-chat-bench.ts [--subscribers 100,500,1000] [--publishers 4] [--seconds 5]
//     [--steady 20000] [--steady-seconds 10] [--warmup 3] [--threads 2] [--window 32]
// Prints, per N: a steady phase (p50/p99 latency at a fixed delivery rate, after an unreported warm-up at the
// same rate) and a flat-out phase (throughput), each with lost and duplicated deliveries and the server's CPU
// and memory.
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { stompFrame } from '../../apps/server/src/stomp/stomp-frame.ts';
import { RawStomp } from './raw-stomp.ts';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '100,500,1000' },
    publishers: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '5' },
    steady: { type: 'string', default: '20000' },
    window: { type: 'string', default: '32' },
    'steady-seconds': { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    threads: { type: 'string', default: '2' },
  },
});
const SUBSCRIBERS = values.subscribers.split(',').map(Number);
const PUBLISHERS = Number(values.publishers);
const SECONDS = Number(values.seconds);
const STEADY_DELIVERIES = Number(values.steady);
const WINDOW = Number(values.window);
const STEADY_SECONDS = Number(values['steady-seconds']);
const WARMUP_SECONDS = Number(values.warmup);
/** Subscriber threads: one thread reading a thousand sockets would itself become the bottleneck measured. */
const THREADS = Math.max(1, Number(values.threads));
/** A phase ends when every subscriber has every message, or nothing arrived for this long. */
const DRAIN_MS = 3_000;

type Usage = { cpu: NodeJS.CpuUsage; rss: number; heap: number; at: number };
type Report = {
  received: number;
  duplicates: number;
  lastAt: number;
  unique: number[];
  latencies: Float64Array;
  closed: number;
};

const now = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function runSize(subscriberCount: number): Promise<void> {
  const server = fork(new URL('./bench-server.ts', import.meta.url), {
    env: { ...process.env, BENCH_USERS: String(PUBLISHERS + subscriberCount) },
    execPath: process.execPath,
    execArgv: process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const fromServer = <T>(type: string): Promise<T> =>
    new Promise((resolve) => {
      const listener = (message: { type: string }): void => {
        if (message.type !== type) return;
        server.off('message', listener);
        resolve(message as T);
      };
      server.on('message', listener);
    });
  const { url, classId, tokens } = await fromServer<{ url: string; classId: number; tokens: string[] }>(
    'ready',
  );
  const usage = (): Promise<Usage> => {
    const answer = fromServer<Usage>('usage');
    server.send({ type: 'usage' });
    return answer;
  };

  const subscriberTokens = tokens.slice(PUBLISHERS);
  const workers = Array.from(
    { length: Math.min(THREADS, subscriberCount) },
    (_unused, thread) =>
      new Worker(new URL('./subscriber-worker.ts', import.meta.url), {
        workerData: {
          url,
          classId,
          tokens: subscriberTokens.filter((_, index) => index % THREADS === thread),
        },
      }),
  );
  const fromWorker = <T>(worker: Worker, type: string): Promise<T> =>
    new Promise((resolve) => {
      const listener = (message: { type: string }): void => {
        if (message.type !== type) return;
        worker.off('message', listener);
        resolve(message as T);
      };
      worker.on('message', listener);
    });
  await Promise.all(workers.map((worker) => fromWorker(worker, 'ready')));

  const publishers = await Promise.all(
    tokens.slice(0, PUBLISHERS).map(async (token) => {
      const client = new RawStomp(url);
      await client.connect(token);
      return client;
    }),
  );

  /** The subscribers' reports of every thread, merged. */
  const ask = async (): Promise<Report> => {
    const reports = await Promise.all(
      workers.map((worker) => {
        const answer = fromWorker<Report>(worker, 'report');
        worker.postMessage({ type: 'report' });
        return answer;
      }),
    );
    const latencies = new Float64Array(reports.reduce((sum, report) => sum + report.latencies.length, 0));
    let offset = 0;
    for (const report of reports) {
      latencies.set(report.latencies, offset);
      offset += report.latencies.length;
    }
    return {
      received: reports.reduce((sum, report) => sum + report.received, 0),
      duplicates: reports.reduce((sum, report) => sum + report.duplicates, 0),
      lastAt: Math.max(...reports.map((report) => report.lastAt)),
      unique: reports.flatMap((report) => report.unique),
      latencies,
      closed: reports.reduce((sum, report) => sum + report.closed, 0),
    };
  };

  const runPhase = async (
    phase: string,
    mode: 'steady' | 'max',
    seconds: number,
    report = true,
  ): Promise<void> => {
    for (const worker of workers) worker.postMessage({ type: 'phase', phase });
    await sleep(100);
    let sent = 0;
    let stored = 0;
    let running = true;
    // SEND to RECEIPT: the store path (parse, membership, insert) plus any wait for the server's event loop.
    const sentAt = new Map<string, number>();
    const receiptLatencies: number[] = [];
    const sendOne = (client: RawStomp): void => {
      sent += 1;
      const at = now();
      const receipt = String(sent);
      sentAt.set(receipt, at);
      const body = JSON.stringify({ roomId: classId, content: `${phase}|${at}` });
      client.send(stompFrame('SEND', { destination: '/app/hello', receipt }, body));
    };
    for (const client of publishers) {
      client.onFrame = (frame) => {
        if (frame.command !== 'RECEIPT') return;
        stored += 1;
        const receipt = frame.headers.get('receipt-id') ?? '';
        receiptLatencies.push(now() - (sentAt.get(receipt) ?? Number.NaN));
        sentAt.delete(receipt);
        if (mode === 'max' && running) sendOne(client);
      };
    }
    const before = await usage();
    const started = now();
    if (mode === 'max') {
      for (const client of publishers) for (let i = 0; i < WINDOW; i += 1) sendOne(client);
      await sleep(seconds * 1000);
    } else {
      const perSecond = STEADY_DELIVERIES / subscriberCount;
      let turn = 0;
      while (now() - started < seconds * 1000) {
        const due = Math.floor(((now() - started) / 1000) * perSecond);
        while (sent < due) sendOne(publishers[turn++ % publishers.length] as RawStomp);
        await sleep(2);
      }
    }
    running = false;
    const sendEnded = now();
    for (let waited = 0; stored < sent && waited < 10_000; waited += 20) await sleep(20);
    // Drain: wait until every subscriber has every stored message, or nothing arrived for a while.
    let last = -1;
    for (let quietSince = now(); now() - quietSince < DRAIN_MS;) {
      await sleep(100);
      const progress = await ask();
      if (progress.received >= stored * subscriberCount) break;
      if (progress.received !== last) {
        last = progress.received;
        quietSince = now();
      }
    }
    const after = await usage();
    const result = await ask();
    if (!report) return;

    const sorted = result.latencies.slice().sort();
    const receipts = Float64Array.from(receiptLatencies).sort();
    const lost = result.unique.reduce((sum, unique) => sum + Math.max(0, stored - unique), 0);
    const elapsed = ((result.lastAt || sendEnded) - started) / 1000;
    const cpuMs = (after.cpu.user - before.cpu.user + after.cpu.system - before.cpu.system) / 1000;
    const cpu = (cpuMs / (after.at - before.at)) * 100;
    console.log(
      [
        String(subscriberCount).padStart(5),
        String(PUBLISHERS).padStart(3),
        phase.padEnd(7),
        String(stored).padStart(7),
        String(result.received).padStart(9),
        Math.round(result.received / elapsed)
          .toString()
          .padStart(9),
        percentile(sorted, 50).toFixed(1).padStart(7),
        percentile(sorted, 99).toFixed(1).padStart(7),
        percentile(receipts, 99).toFixed(1).padStart(7),
        String(lost).padStart(6),
        String(result.duplicates).padStart(5),
        String(result.closed).padStart(6),
        cpu.toFixed(0).padStart(5),
        (after.rss / 1024 / 1024).toFixed(0).padStart(7),
        // CPU time per delivery does not depend on what else runs on the machine: it bounds the rate one
        // core could sustain.
        ((cpuMs * 1000) / Math.max(1, result.received)).toFixed(1).padStart(8),
        Math.round(result.received / Math.max(0.001, cpuMs / 1000))
          .toString()
          .padStart(10),
      ].join(' '),
    );
  };

  // Unreported: lets both sides' code be compiled and optimised before anything is measured.
  if (WARMUP_SECONDS > 0) await runPhase('warmup', 'steady', WARMUP_SECONDS, false);
  await runPhase('steady', 'steady', STEADY_SECONDS);
  await runPhase('max', 'max', SECONDS);

  for (const client of publishers) client.close();
  for (const worker of workers) worker.postMessage({ type: 'stop' });
  await Promise.all(workers.map((worker) => worker.terminate()));
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.send({ type: 'stop' });
  await exited;
}

console.log(
  `chat fan-out: ${PUBLISHERS} publishers, ${THREADS} subscriber threads; steady: ${STEADY_DELIVERIES} ` +
    `deliveries/s for ${STEADY_SECONDS} s after ${WARMUP_SECONDS} s of warm-up; max: ${SECONDS} s, ` +
    `${WINDOW} SENDs in flight per publisher`,
);
console.log(
  '  subs pub phase    stored delivered  deliv/s  p50 ms  p99 ms rcpt99   lost  dups closed cpu% rss MB  µs/dlv  dlv/cpu-s',
);
for (const count of SUBSCRIBERS) await runSize(count);
