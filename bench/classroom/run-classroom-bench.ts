// Classroom benchmark: a thousand members in one live class, two hundred of them answering a poll and reacting
// at once, while others ask questions and, last, four publishers chat flat out.
//   npm exec -- node bench/classroom/run-classroom-bench.ts [--subscribers 1000] [--actors 200]
//     [--reactions 10] [--storm-seconds 5] [--questions-per-second 10] [--chat-seconds 5] [--threads 2]
// The server is bench/chat's (its own process; BENCH_DATABASE=postgres and REDIS_URL as there).
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import {
  POLL_CREATE_DESTINATION,
  QUESTION_ASK_DESTINATION,
  REACTION_UPDATES_PER_SECOND,
} from '@sea/contract/classroom';
import { stompFrame } from '../../apps/server/src/stomp/stomp-frame.ts';
import type { RawStomp } from '../chat/raw-stomp.ts';
import { connectClient, connectTeacher, countRefusals } from './room-clients.ts';
import {
  cpuMs,
  cpuPercent,
  load,
  mergeReports,
  now,
  once,
  percentile,
  sleep,
  type Report,
  type Usage,
} from './bench-parts.ts';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    actors: { type: 'string', default: '200' },
    reactions: { type: 'string', default: '10' },
    'storm-seconds': { type: 'string', default: '5' },
    'questions-per-second': { type: 'string', default: '10' },
    'chat-seconds': { type: 'string', default: '5' },
    threads: { type: 'string', default: '2' },
    window: { type: 'string', default: '32' },
    servers: { type: 'string', default: '1' },
  },
});
const SUBSCRIBERS = Number(values.subscribers);
const ACTORS = Number(values.actors);
const REACTIONS_PER_ACTOR = Number(values.reactions);
const STORM_SECONDS = Number(values['storm-seconds']);
const QUESTIONS_PER_SECOND = Number(values['questions-per-second']);
const CHAT_SECONDS = Number(values['chat-seconds']);
const THREADS = Math.max(1, Number(values.threads));
const WINDOW = Number(values.window);
const SERVERS = Math.max(1, Number(values.servers));
if (SERVERS > 1 && (process.env.BENCH_DATABASE !== 'postgres' || !process.env.REDIS_URL))
  throw new Error('--servers above 1 needs BENCH_DATABASE=postgres and REDIS_URL (the servers share both)');
const PUBLISHERS = 4;
const ASKERS = 4;

/** One API server process (bench/chat's), seeding the benchmark's users unless it joins the first's database. */
const startServer = (env: Record<string, string>) =>
  fork(new URL('../chat/bench-server.ts', import.meta.url), {
    env: { ...process.env, BENCH_JWT_SECRET: JWT_SECRET, ...env },
    execPath: process.execPath,
    execArgv: process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
const JWT_SECRET = randomBytes(32).toString('hex');
const first = startServer({ BENCH_USERS: String(1 + SUBSCRIBERS + PUBLISHERS + ASKERS), BENCH_LIVE: '1' });
const { url, classId, tokens, databaseUrl } = await once<{
  url: string;
  classId: number;
  tokens: string[];
  databaseUrl: string | null;
}>(first, 'ready');
// With --servers N, N-1 more API servers on the same PostgreSQL and Redis; the members are spread over all.
const others = Array.from({ length: SERVERS - 1 }, () =>
  startServer({ BENCH_JOIN_DATABASE_URL: databaseUrl ?? '' }),
);
const urls = [
  url,
  ...(await Promise.all(others.map((other) => once<{ url: string }>(other, 'ready')))).map(
    (ready) => ready.url,
  ),
];
const servers = [first, ...others];
/** The servers' CPU and memory added up. */
const usage = async (): Promise<Usage> => {
  const each = await Promise.all(
    servers.map((server) => {
      const answer = once<Usage>(server, 'usage');
      server.send({ type: 'usage' });
      return answer;
    }),
  );
  return each.reduce((sum, one) => ({
    cpu: { user: sum.cpu.user + one.cpu.user, system: sum.cpu.system + one.cpu.system },
    rss: sum.rss + one.rss,
    at: Math.max(sum.at, one.at),
    loopDelayMaxMs: Math.max(sum.loopDelayMaxMs, one.loopDelayMaxMs),
  }));
};
/** The server the `index`th client of a kind connects to: round the servers, the teacher's first. */
const urlFor = (index: number): string => urls[index % urls.length] ?? url;

const [teacherToken = ''] = tokens;
const memberTokens = tokens.slice(1, 1 + SUBSCRIBERS);
const publisherTokens = tokens.slice(1 + SUBSCRIBERS, 1 + SUBSCRIBERS + PUBLISHERS);
const askerTokens = tokens.slice(1 + SUBSCRIBERS + PUBLISHERS);

const { teacher, heard, waitFor } = await connectTeacher(url, classId, teacherToken);
const { questionLatencies, questionStored } = heard;
// The askers from the second server on: with several servers, every question crosses to the teacher's through
// Redis.
const connectAll = (list: string[]) =>
  Promise.all(list.map((token, index) => connectClient(urlFor(index + 1), token)));
const askers = await connectAll(askerTokens);
const questionRefusals = countRefusals(askers);
const publishers = await connectAll(publisherTokens);

const perThread = (list: string[], thread: number): string[] =>
  list.filter((_, index) => index % THREADS === thread);
const workers = Array.from(
  { length: THREADS },
  (_unused, thread) =>
    new Worker(new URL('./room-worker.ts', import.meta.url), {
      workerData: {
        url: urlFor(thread),
        classId,
        tokens: perThread(memberTokens, thread),
        actors: Math.ceil(ACTORS / THREADS),
      },
    }),
);
await Promise.all(workers.map((worker) => once(worker, 'ready')));

const tellWorkers = (message: unknown): void => {
  for (const worker of workers) worker.postMessage(message);
};
const ask = async (): Promise<Report> => {
  const reports = await Promise.all(
    workers.map((worker) => {
      const answer = once<Report>(worker, 'report');
      worker.postMessage({ type: 'report' });
      return answer;
    }),
  );
  return mergeReports(reports);
};
/** Where a question's time went: until its row was stored, the rest being the fan-out to the teacher. */
const storedText = (): string =>
  `stored p50 ${percentile(questionStored, 50).toFixed(1)} ms, p99 ${percentile(questionStored, 99).toFixed(1)} ms after SEND`;

/** Asks questions at the set rate, spread over the askers, for `seconds`. */
async function askQuestions(seconds: number): Promise<number> {
  const started = now();
  let sent = 0;
  while (now() - started < seconds * 1000) {
    const due = Math.floor(((now() - started) / 1000) * QUESTIONS_PER_SECOND);
    while (sent < due) {
      const body = JSON.stringify({ roomId: classId, content: `q|${now()}`, anonymous: false });
      askers[sent % askers.length]?.send(stompFrame('SEND', { destination: QUESTION_ASK_DESTINATION }, body));
      sent += 1;
    }
    await sleep(2);
  }
  return sent;
}

/**
 * Waits until every question asked reached the teacher and `done` holds (or 30 s passed), so that no backlog of
 * one phase is counted in the next.
 */
async function settle(asked: number, done: () => Promise<boolean> = async () => true): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 200) {
    if (questionLatencies.length >= asked && (await done())) return;
    await sleep(200);
  }
  console.log(
    `  (not settled after 30 s: ${questionLatencies.length} of ${asked} questions arrived; ` +
      `refused ${JSON.stringify(questionRefusals)})`,
  );
}

async function questionPhase(name: string, report = true): Promise<void> {
  tellWorkers({ type: 'phase', phase: name });
  questionLatencies.length = 0;
  questionStored.length = 0;
  const before = await usage();
  const loadText = load();
  const sent = await askQuestions(STORM_SECONDS);
  await settle(sent);
  const after = await usage();
  if (!report) return;
  console.log(
    `${name}: ${sent} questions asked, ${questionLatencies.length} reached the teacher; ` +
      `p50 ${percentile(questionLatencies, 50).toFixed(1)} ms, p99 ${percentile(questionLatencies, 99).toFixed(1)} ms ` +
      `(${storedText()}); ` +
      `server cpu ${cpuPercent(before, after).toFixed(0)}% (${cpuMs(before, after).toFixed(0)} ms); ${loadText}`,
  );
}

async function stormPhase(name: string, report = true): Promise<void> {
  tellWorkers({ type: 'phase', phase: name });
  questionLatencies.length = 0;
  questionStored.length = 0;
  const created = waitFor('poll');
  const poll = {
    roomId: classId,
    question: '오늘 수업 어땠나요?',
    options: ['좋아요', '보통', '어려워요'],
    multiple: false,
  };
  teacher.send(stompFrame('SEND', { destination: POLL_CREATE_DESTINATION }, JSON.stringify(poll)));
  const pollId = await created;
  const asked = waitFor('popular');
  const popular = JSON.stringify({ roomId: classId, content: `popular|${name}`, anonymous: false });
  askers[0]?.send(stompFrame('SEND', { destination: QUESTION_ASK_DESTINATION }, popular));
  const questionId = await asked;
  const loadText = load();
  const before = await usage();
  const started = now();
  tellWorkers({
    type: 'act',
    act: { pollId, questionId, reactions: REACTIONS_PER_ACTOR, spreadMs: STORM_SECONDS * 1000 },
  });
  const sent = await askQuestions(STORM_SECONDS);
  const reactionsSent = Math.ceil(ACTORS / THREADS) * THREADS * REACTIONS_PER_ACTOR;
  await settle(sent, async () => Math.min(...(await ask()).reactionSums) >= reactionsSent);
  const settledAfter = (now() - started) / 1000;
  const after = await usage();
  const result = await ask();
  if (!report) return;
  // Intervals per second between a client's first and last update: its average rate while updates came.
  const meanRate = result.reactionUpdates.map(
    (count, i) => (count - 1) / Math.max(0.001, (result.reactionSpanMs[i] ?? 0) / 1000),
  );
  console.log(
    `${name}: ${result.reactionMaxPerSecond.length} subscribers, ${ACTORS} answering the poll, upvoting a question and sending ${REACTIONS_PER_ACTOR} reactions each over ${STORM_SECONDS} s; ${loadText}`,
  );
  console.log(
    `  reactions: per client at most ${Math.max(...result.reactionMaxPerSecond)} updates in any 1 s ` +
      `(aim <= ${REACTION_UPDATES_PER_SECOND}; median client ${percentile(result.reactionMaxPerSecond, 50)}), ` +
      `in any 2 s at most ${Math.max(...result.reactionMaxPer2s)}, ` +
      `mean ${percentile(meanRate, 50).toFixed(2)}/s (max ${Math.max(...meanRate).toFixed(2)}), shortest gap ${Math.min(...result.minGapMs).toFixed(0)} ms; ` +
      `reactions summed per client: min ${Math.min(...result.reactionSums)} max ${Math.max(...result.reactionSums)} of ${reactionsSent} sent`,
  );
  console.log(
    `  poll: ${percentile(result.polls, 50)} updates per client (median), at most ` +
      `${Math.max(...result.pollMaxPerSecond)} in any 1 s`,
  );
  console.log(
    `  questions during the storm: ${sent} asked, ${questionLatencies.length} reached the teacher; ` +
      `p50 ${percentile(questionLatencies, 50).toFixed(1)} ms, p99 ${percentile(questionLatencies, 99).toFixed(1)} ms ` +
      `(${storedText()}; each member got median ${percentile(result.questions, 50)} question updates: ${sent + 1} new ` +
      `questions and the updates of ${ACTORS} upvotes of one)`,
  );
  console.log(
    `  everything arrived ${settledAfter.toFixed(1)} s after the storm began; ` +
      `server cpu ${cpuPercent(before, after).toFixed(0)}% (${cpuMs(before, after).toFixed(0)} ms), rss ${(after.rss / 1024 / 1024).toFixed(0)} MB, ` +
      `event loop late by up to ${after.loopDelayMaxMs.toFixed(0)} ms; ` +
      `refusals ${JSON.stringify(result.refusals)}; closed ${result.closed}`,
  );
}

async function chatPhase(name: string, seconds: number, report = true): Promise<void> {
  tellWorkers({ type: 'phase', phase: name });
  await sleep(100);
  let sent = 0;
  let stored = 0;
  let running = true;
  const sendOne = (client: RawStomp): void => {
    sent += 1;
    const body = JSON.stringify({ roomId: classId, content: `${name}|${now()}` });
    client.send(stompFrame('SEND', { destination: '/app/hello', receipt: String(sent) }, body));
  };
  for (const client of publishers) {
    client.onFrame = (frame) => {
      if (frame.command !== 'RECEIPT') return;
      stored += 1;
      if (running) sendOne(client);
    };
  }
  const loadText = load();
  const before = await usage();
  const started = now();
  for (const client of publishers) for (let i = 0; i < WINDOW; i += 1) sendOne(client);
  await sleep(seconds * 1000);
  running = false;
  for (let waited = 0; stored < sent && waited < 10_000; waited += 20) await sleep(20);
  // Drain as bench/chat does: until every member has every message, or nothing arrived for 3 s.
  let last = -1;
  for (let quietSince = now(); now() - quietSince < 3_000;) {
    await sleep(100);
    const progress = await ask();
    if (progress.chat >= stored * SUBSCRIBERS) break;
    if (progress.chat !== last) {
      last = progress.chat;
      quietSince = now();
    }
  }
  const after = await usage();
  const result = await ask();
  // As bench/chat counts it: from the first SEND to the last delivery.
  const elapsed = ((result.chatLastAt || now()) - started) / 1000;
  if (!report) return;
  const lost = result.chatUnique.reduce((sum, unique) => sum + Math.max(0, stored - unique), 0);
  console.log(
    `${name}: ${stored} messages stored, ${result.chat} deliveries, ` +
      `${Math.round(result.chat / elapsed)} deliveries/s (until the last arrived), p50 ` +
      `${percentile(result.chatLatencies, 50).toFixed(1)} ms, p99 ${percentile(result.chatLatencies, 99).toFixed(1)} ms, ` +
      `lost ${lost}; server cpu ${cpuPercent(before, after).toFixed(0)}%, ` +
      `${((cpuMs(before, after) * 1000) / Math.max(1, result.chat)).toFixed(1)} µs/delivery; ${loadText}`,
  );
}

console.log(
  `classroom: ${SUBSCRIBERS} members subscribed to chat, questions, polls and reactions over ${THREADS} threads; ` +
    `${process.env.BENCH_DATABASE === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${process.env.REDIS_URL ? 'Redis fan-out' : 'memory fan-out'}, ` +
    `${SERVERS} API server${SERVERS > 1 ? 's' : ''}`,
);
// Unreported warm-up of both sides' code.
await questionPhase('warmup-questions', false);
await stormPhase('warmup-storm', false);
await chatPhase('warmup-chat', 2, false);

await questionPhase('questions (quiet room)');
await stormPhase('storm');
await chatPhase('chat (max)', CHAT_SECONDS);

for (const client of [teacher, ...askers, ...publishers]) client.close();
tellWorkers({ type: 'stop' });
await Promise.all(workers.map((worker) => worker.terminate()));
// The joining servers first: the first one drops the database.
for (const server of [...others, first]) {
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.send({ type: 'stop' });
  await exited;
}
