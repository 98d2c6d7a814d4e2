// A batch of synthetic students (werift clients) in one process: each joins, consumes every stream and resumes
// it, then counts what arrives. Prints one `RESULT <json>` line: per student the time from `joinRoom` to the
// first forwarded keyframe and, per stream, packets received and lost (sequence gaps never filled).
import { io, type Socket } from 'socket.io-client';
import { LIVE_SOCKET_PATH, type LiveAnswer } from '@sea/contract/live';
import { SyntheticStudent } from '../../apps/media/test/synthetic-student.ts';
import { signTicket } from '../../apps/media/test/test-media-server.ts';

const [url = '', countText = '10', firstText = '0', secondsText = '10'] = process.argv.slice(2);
const count = Number(countText);
const first = Number(firstText);
const seconds = Number(secondsText);

async function request<T>(socket: Socket, name: string, payload: unknown = {}): Promise<T> {
  const answer = (await socket.timeout(30_000).emitWithAck(name, payload)) as LiveAnswer<T>;
  if ('error' in answer) throw new Error(`${name}: ${answer.error.code}`);
  return answer.data;
}

type Joined = { student: SyntheticStudent; socket: Socket; joinAt: number; mids: Map<string, string> };

async function join(index: number): Promise<Joined> {
  const ticket = await signTicket({ role: 'student', sub: `bench-${index}` });
  const socket = io(url, {
    path: LIVE_SOCKET_PATH,
    transports: ['websocket'],
    auth: { ticket },
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const student = new SyntheticStudent();
  const joinAt = performance.now();
  await request(socket, 'joinRoom');
  const { transportId } = await request<{ transportId: string }>(socket, 'createConsumerTransport');
  const offer = await request<{
    sdp: string;
    consumers: { consumerId: string; producerKind: string; mid: string }[];
  }>(socket, 'consume', { transportId });
  await request(socket, 'connectConsumerTransport', { transportId, sdp: await student.answer(offer.sdp) });
  for (const consumer of offer.consumers)
    await request(socket, 'resume', { consumerId: consumer.consumerId });
  return { student, socket, joinAt, mids: new Map(offer.consumers.map((c) => [c.mid, c.producerKind])) };
}

// A few at a time: dozens of simultaneous werift ICE/DTLS handshakes in one process starve each other (their
// checks time out and the connection fails), which would measure the load generator, not the SFU.
const JOIN_CONCURRENCY = 10;
const joined: Joined[] = [];
for (let i = 0; i < count; i += JOIN_CONCURRENCY) {
  const batch = Array.from({ length: Math.min(JOIN_CONCURRENCY, count - i) }, (_, j) => join(first + i + j));
  joined.push(...(await Promise.all(batch)));
}
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));

const students = joined.map(({ student, joinAt, mids }) => {
  const streams: Record<string, { received: number; lost: number }> = {};
  let firstKeyframeMs: number | null = null;
  for (const [mid, kind] of mids) {
    const packets = student.packets(mid);
    const keyframe = packets.find((p) => p.keyframeStart);
    if (kind === 'webcamVideo' && keyframe) firstKeyframeMs = keyframe.at - joinAt;
    // Extended sequence numbers across the wraparound; loss = expected - distinct received.
    let extended = 0;
    let last: number | null = null;
    const seen = new Set<number>();
    for (const packet of packets) {
      if (last !== null) extended += ((packet.seq - last + 0x8000) & 0xffff) - 0x8000;
      last = packet.seq;
      seen.add(extended);
    }
    const expected = seen.size === 0 ? 0 : Math.max(...seen) - Math.min(...seen) + 1;
    streams[kind] = { received: packets.length, lost: Math.max(0, expected - seen.size) };
  }
  return { firstKeyframeMs, streams };
});
process.stdout.write(`RESULT ${JSON.stringify(students)}\n`);
for (const { student, socket } of joined) {
  socket.disconnect();
  await student.close();
}
process.exit(0);
