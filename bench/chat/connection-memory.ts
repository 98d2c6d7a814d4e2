/**
 * Memory per chat connection (issue 34, light servers: at most 40 KB each with 1 000 connections): starts
 * bench/chat's server process with --expose-gc, measures its resident memory and heap after a full collection,
 * then opens `--connections` STOMP connections of enrolled members, each subscribed to the class's chat,
 * waits `--settle-seconds`, collects and measures again, and prints the difference per connection, with the
 * load average. The clients run in this process; only the server's memory is counted.
 * Run: BENCH_DATABASE=postgres REDIS_URL=redis://127.0.0.1:6379 \
 *   npm exec -- node bench/chat/connection-memory.ts [--connections 1000] [--settle-seconds 5]
 */
import { fork } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { chatTopic } from '@sea/contract/chat';
import { stompFrame } from '../../apps/server/src/stomp/stomp-frame.ts';
import { once, sleep } from '../classroom/bench-parts.ts';
import { connectClient } from '../classroom/room-clients.ts';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '1000' },
    'settle-seconds': { type: 'string', default: '5' },
  },
});
const CONNECTIONS = Number(values.connections);
const SETTLE_MS = Number(values['settle-seconds']) * 1000;

type Memory = { rss: number; heap: number };
const server = fork(new URL('./bench-server.ts', import.meta.url), {
  env: { ...process.env, BENCH_USERS: String(1 + CONNECTIONS) },
  execPath: process.execPath,
  execArgv: ['--expose-gc'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const { url, classId, tokens } = await once<{ url: string; classId: number; tokens: string[] }>(
  server,
  'ready',
);
const measure = async (): Promise<Memory> => {
  const answer = once<Memory>(server, 'usage');
  server.send({ type: 'usage', gc: true });
  return answer;
};

await sleep(SETTLE_MS);
const before = await measure();
// In batches of 100, as a class's students arrive: each connects (token checked) and subscribes.
const clients = [];
const members = tokens.slice(1, 1 + CONNECTIONS);
for (let index = 0; index < members.length; index += 100) {
  clients.push(
    ...(await Promise.all(
      members.slice(index, index + 100).map(async (token, offset) => {
        const client = await connectClient(url, token);
        client.send(stompFrame('SUBSCRIBE', { id: `c${index + offset}`, destination: chatTopic(classId) }));
        return client;
      }),
    )),
  );
}
await sleep(SETTLE_MS);
const after = await measure();

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const kbEach = (bytes: number) => (bytes / 1024 / clients.length).toFixed(1);
console.log(
  `${os.cpus().length} CPUs, Node ${process.version}, ${process.env.BENCH_DATABASE === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ` +
    `${process.env.REDIS_URL ? 'Redis' : 'no Redis'}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
console.log(
  `${clients.length} chat connections: server RSS ${mb(before.rss)} -> ${mb(after.rss)} MB ` +
    `(${kbEach(after.rss - before.rss)} KB each), heap ${mb(before.heap)} -> ${mb(after.heap)} MB ` +
    `(${kbEach(after.heap - before.heap)} KB each), after a full collection`,
);

for (const client of clients) client.close();
const exited = new Promise((resolve) => server.once('exit', resolve));
server.send({ type: 'stop' });
await exited;
