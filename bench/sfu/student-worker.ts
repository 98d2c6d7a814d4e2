// A batch of light students (werift ICE + DTLS, RTP counted from clear headers) in one process. Student `i`
// of the batch (global index first + i) starts joining at `startAt + index * joinIntervalMs`. Each joins,
// consumes every stream and resumes it (ours), or subscribes to the teacher's four streams with one VideoRoom
// handle (Janus; the top simulcast layer, which our students reach once the estimate has climbed). Commands on stdin: `MARK` snapshots the counts (the first one starts
// the measured window, the second ends it); `REPORT` prints one `RESULT <json>` line and exits.
import readline from 'node:readline';
import { io, type Socket } from 'socket.io-client';
import { LIVE_SOCKET_PATH, type LiveAnswer } from '@sea/contract/live';
import { signTicket } from '../../apps/media/test/test-media-server.ts';
import { JanusVideoRoomHandle } from './janus-client.ts';
import { JANUS_ICE_ADDRESS } from './janus-server.ts';
import { LightStudent, type StreamCount } from '../../harness/light-student.ts';
import type { JanusTarget } from './publish-teacher-janus.ts';
import type { StudentTarget } from './student-workers.ts';

const [targetText = '{}', countText = '10', firstText = '0', intervalText = '0'] = process.argv.slice(2);
const target = JSON.parse(targetText) as StudentTarget;
const count = Number(countText);
const first = Number(firstText);
const joinIntervalMs = Number(intervalText);
const REQUEST_TIMEOUT_MS = 30_000;

async function request<T>(socket: Socket, name: string, payload: unknown = {}): Promise<T> {
  const answer = (await socket.timeout(REQUEST_TIMEOUT_MS).emitWithAck(name, payload)) as LiveAnswer<T>;
  if ('error' in answer) throw new Error(`${name}: ${answer.error.code}`);
  return answer.data;
}

/** Milliseconds from sending `joinRoom` to each step (null when the step never came). */
type Timings = { answered: number | null; ice: number | null; dtls: number | null; keyframe: number | null };

type Joined = {
  student: LightStudent;
  leave: () => Promise<void>;
  joinAt: number;
  answeredAt: number | null;
};

async function join(index: number): Promise<Joined> {
  return target.server === 'janus' ? joinJanus(target) : joinOurs(index, target.url);
}

async function joinOurs(index: number, url: string): Promise<Joined> {
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
  const student = new LightStudent();
  const leave = async () => {
    socket.disconnect();
  };
  const joined: Joined = { student, leave, joinAt: performance.now(), answeredAt: null };
  // The web client's order (StudentViewer): join, capabilities, transport, offer, answer, resume each.
  await request(socket, 'joinRoom');
  await request(socket, 'getRouterRtpCapabilities');
  const { transportId } = await request<{ transportId: string }>(socket, 'createConsumerTransport');
  const offer = await request<{
    sdp: string;
    consumers: { consumerId: string; producerKind: string; mid: string }[];
  }>(socket, 'consume', { transportId });
  const kindByMid = new Map(offer.consumers.map((c) => [c.mid, c.producerKind]));
  const sdp = await student.answer(offer.sdp, kindByMid);
  await request(socket, 'connectConsumerTransport', { transportId, sdp });
  joined.answeredAt = performance.now();
  for (const consumer of offer.consumers)
    await request(socket, 'resume', { consumerId: consumer.consumerId });
  return joined;
}

async function joinJanus(janus: JanusTarget): Promise<Joined> {
  const handle = await JanusVideoRoomHandle.attach(janus.url);
  const student = new LightStudent(JANUS_ICE_ADDRESS);
  const joined: Joined = {
    student,
    leave: () => handle.close(),
    joinAt: performance.now(),
    answeredAt: null,
  };
  const streams = Object.entries(janus.kindByFeedMid).map(([mid, kind]) =>
    kind === 'webcamVideo' ? { feed: janus.feed, mid, substream: 2, temporal: 2 } : { feed: janus.feed, mid },
  );
  const offer = await handle.message({ request: 'join', room: janus.room, ptype: 'subscriber', streams });
  if (!offer.jsep) throw new Error('janus: no offer for the subscriber');
  const kindByMid = new Map<string, string>();
  for (const stream of (offer.data.streams ?? []) as { mid: string; feed_mid?: string }[]) {
    const kind = janus.kindByFeedMid[stream.feed_mid ?? ''];
    if (kind !== undefined) kindByMid.set(stream.mid, kind);
  }
  const sdp = await student.answer(offer.jsep.sdp, kindByMid);
  await handle.message({ request: 'start' }, { type: 'answer', sdp });
  joined.answeredAt = performance.now();
  return joined;
}

const since = (start: number, at: number | null) => (at === null ? null : Math.round(at - start));

function timings({ student, joinAt, answeredAt }: Joined): Timings {
  return {
    answered: since(joinAt, answeredAt),
    ice: since(joinAt, student.iceConnectedAt),
    dtls: since(joinAt, student.dtlsConnectedAt),
    keyframe: since(joinAt, student.counts().webcamVideo?.firstAt ?? null),
  };
}

const joined: Joined[] = [];
let failures = 0;
const start = performance.now();
const joins = Array.from({ length: count }, async (_, i) => {
  const delay = (first + i) * joinIntervalMs - (performance.now() - start);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  try {
    joined.push(await join(first + i));
  } catch (error) {
    failures += 1;
    console.error(`bench student ${first + i}: ${(error as Error).message}`);
  }
});

const marks: Map<Joined, Record<string, StreamCount>>[] = [];
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line === 'MARK') {
    marks.push(new Map(joined.map((j) => [j, j.student.counts()])));
    for (const { student } of joined) student.collectDelays(marks.length === 1);
  }
  if (line === 'REPORT') void report();
});

/** The p-th percentile (nearest rank) of `values`, or null for none. */
function percentile(values: number[], p: number): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return value === undefined ? null : Math.round(value);
}

async function report(): Promise<void> {
  const students = joined.map((j) => {
    const now = j.student.counts();
    const before = marks[0]?.get(j) ?? {};
    const after = marks[1]?.get(j) ?? now;
    const streams: Record<
      string,
      { received: number; lost: number; windowReceived: number; windowLost: number }
    > = {};
    for (const [kind, c] of Object.entries(now)) {
      const b = before[kind] ?? { received: 0, lost: 0 };
      const a = after[kind] ?? c;
      streams[kind] = {
        received: c.received,
        lost: c.lost,
        windowReceived: a.received - b.received,
        windowLost: Math.max(0, a.lost - b.lost),
      };
    }
    return {
      timings: timings(j),
      streams,
      connected: j.student.pc.connectionState === 'connected',
      audioDelayMs: { p50: percentile(j.student.delays, 50), p95: percentile(j.student.delays, 95) },
    };
  });
  process.stdout.write(`RESULT ${JSON.stringify({ failures, students })}\n`);
  for (const { student, leave } of joined) {
    await leave();
    await student.close();
  }
  process.exit(0);
}

await Promise.all(joins);
process.stdout.write(`JOINED ${joined.length}\n`);
