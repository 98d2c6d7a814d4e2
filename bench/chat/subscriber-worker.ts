// Holds the subscribers of one benchmark run and measures what they receive.
import { parentPort, workerData } from 'node:worker_threads';
import { frameText, stompFrame } from '../../apps/server/src/stomp/stomp-frame.ts';
import { RawStomp } from './raw-stomp.ts';

const { url, classId, tokens } = workerData as { url: string; classId: number; tokens: string[] };
const port = parentPort;
if (!port) throw new Error('run as a worker');

let phase = '';
let received = 0;
let duplicates = 0;
let lastAt = 0;
let latencies: number[] = [];
let seen: Array<Set<number>> = tokens.map(() => new Set());

const clients = tokens.map((token, index) => {
  const client = new RawStomp(url);
  const ready = client.connect(token).then(
    () =>
      new Promise<void>((resolve) => {
        client.onFrame = (frame) => {
          if (frame.command === 'RECEIPT') return resolve();
          if (frame.command !== 'MESSAGE') return;
          const message = JSON.parse(frameText(frame)) as { id: number; content: string };
          const [tag, sentAt] = message.content.split('|');
          if (tag !== phase) return;
          const set = seen[index];
          if (!set) return;
          received += 1;
          if (set.has(message.id)) duplicates += 1;
          else set.add(message.id);
          lastAt = performance.timeOrigin + performance.now();
          latencies.push(lastAt - Number(sentAt));
        };
        client.send(
          stompFrame('SUBSCRIBE', { id: 'sub-0', destination: `/topic/greetings/${classId}`, receipt: 'r' }),
        );
      }),
  );
  return { client, ready };
});

await Promise.all(clients.map((c) => c.ready));
port.postMessage({ type: 'ready' });

port.on('message', (message: { type: string; phase?: string }) => {
  if (message.type === 'phase') {
    phase = message.phase ?? '';
    received = 0;
    duplicates = 0;
    lastAt = 0;
    latencies = [];
    seen = tokens.map(() => new Set());
  } else if (message.type === 'report') {
    port.postMessage({
      type: 'report',
      received,
      duplicates,
      lastAt,
      unique: seen.map((set) => set.size),
      latencies: Float64Array.from(latencies),
      closed: clients.filter((c) => c.client.closed).length,
    });
  } else if (message.type === 'stop') {
    for (const { client } of clients) client.close();
    port.close();
  }
});
