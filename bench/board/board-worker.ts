// Holds some of the room's students, each subscribed to the class's board, and records when each piece of ink
// arrived at each of them and how many bytes each received.
import { parentPort, workerData } from 'node:worker_threads';
import { boardTopic } from '@sea/contract/board';
import { frameText, stompFrame } from '../../apps/server/src/stomp/stomp-frame.ts';
import { RawStomp } from '../chat/raw-stomp.ts';

type Setup = { url: string; classId: number; tokens: string[] };
const { url, classId, tokens } = workerData as Setup;
const port = parentPort;
if (!port) throw new Error('run as a worker');

const now = (): number => performance.timeOrigin + performance.now();
/** A WebSocket frame's own header, server to client, for bodies of 126 to 65 535 bytes. */
const WS_HEADER_BYTES = 4;

let measuring = false;
/** Per piece (`strokeId:from`), the arrival times at every student of this thread. */
let arrivals = new Map<string, number[]>();
let bytes = tokens.map(() => 0);
let pieces = tokens.map(() => 0);

/** A MESSAGE frame's bytes on the wire: command, headers, blank line, body and the closing NUL. */
function frameBytes(frame: { command: string; headers: Map<string, string>; body: Uint8Array }): number {
  let bytes = frame.command.length + 1 + 1 + frame.body.length + 1;
  for (const [name, value] of frame.headers)
    bytes += Buffer.byteLength(name) + 1 + Buffer.byteLength(value) + 1;
  return bytes;
}

/** Students connect this many at a time: on a loaded machine a thousand at once outwait the CONNECT timeout. */
const CONNECT_BATCH = 50;

function join(token: string, index: number): { client: RawStomp; ready: Promise<void> } {
  const client = new RawStomp(url);
  const ready = client.connect(token).then(
    () =>
      new Promise<void>((resolve) => {
        client.onFrame = (frame) => {
          if (frame.command === 'RECEIPT') return resolve();
          if (frame.command !== 'MESSAGE' || !measuring) return;
          const at = now();
          bytes[index] = (bytes[index] ?? 0) + frameBytes(frame) + WS_HEADER_BYTES;
          const event = JSON.parse(frameText(frame)) as { type: string; strokeId?: string; from?: number };
          if (event.type !== 'ink') return;
          pieces[index] = (pieces[index] ?? 0) + 1;
          const key = `${event.strokeId}:${event.from}`;
          const list = arrivals.get(key) ?? [];
          list.push(at);
          arrivals.set(key, list);
        };
        client.send(stompFrame('SUBSCRIBE', { id: 'b', destination: boardTopic(classId), receipt: 'ready' }));
      }),
  );
  return { client, ready };
}

const clients: { client: RawStomp; ready: Promise<void> }[] = [];
for (let start = 0; start < tokens.length; start += CONNECT_BATCH) {
  const batch = tokens
    .slice(start, start + CONNECT_BATCH)
    .map((token, offset) => join(token, start + offset));
  clients.push(...batch);
  await Promise.all(batch.map((each) => each.ready));
}
port.postMessage({ type: 'ready' });

port.on('message', (message: { type: string; sent?: Record<string, number> }) => {
  if (message.type === 'start') {
    measuring = true;
    arrivals = new Map();
    bytes = tokens.map(() => 0);
    pieces = tokens.map(() => 0);
  } else if (message.type === 'count') {
    port.postMessage({ type: 'count', least: Math.min(...pieces) });
  } else if (message.type === 'report') {
    measuring = false;
    const sent = message.sent ?? {};
    const latencies: number[] = [];
    for (const [key, times] of arrivals) {
      const at = sent[key];
      if (at !== undefined) for (const time of times) latencies.push(time - at);
    }
    port.postMessage({
      type: 'report',
      latencies: Float64Array.from(latencies),
      bytes,
      pieces,
      closed: clients.filter((each) => each.client.closed).length,
    });
  } else if (message.type === 'stop') {
    for (const { client } of clients) client.close();
    port.close();
  }
});
