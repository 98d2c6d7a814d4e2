import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveError } from '../src/live-error.ts';
import { Peer } from '../src/peer.ts';
import { openPeerConnections } from '../src/rtc/peer-connection.ts';
import type { ReceivingTransport } from '../src/rtc/receiving-transport.ts';
import type { WorkerCounts } from '../src/workers/messages.ts';
import { SyntheticStudent } from './synthetic-student.ts';
import { SyntheticTeacher } from './synthetic-teacher.ts';
import { teachingServer } from './teaching-server.ts';
import { delay, LOOPBACK_RTC, until } from './test-media-server.ts';

const resources = (kind: string) => process.getActiveResourcesInfo().filter((r) => r === kind).length;

/** A moment to close at: after some microtasks (inside werift's own awaits), event-loop turns or milliseconds. */
type Moment = { name: string; wait: () => Promise<void> };
const microtasks = (n: number): Moment => ({
  name: `${n} microtasks`,
  wait: async () => {
    for (let i = 0; i < n; i += 1) await null;
  },
});
const turns = (n: number): Moment => ({
  name: `${n} turns`,
  wait: async () => {
    for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
  },
});
const millis = (ms: number): Moment => ({
  name: `${ms} ms`,
  wait: async () => {
    await delay(ms);
  },
});
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Every microtask of a negotiation in this thread, then later and later moments. */
const IN_THREAD: Moment[] = [
  ...range(60).map(microtasks),
  ...range(12).map((n) => turns(n + 1)),
  ...[2, 5, 10, 20, 40].map(millis),
];
/** In a worker the negotiation runs on another thread: close after turns and milliseconds. */
const IN_WORKER: Moment[] = [
  microtasks(0),
  ...range(10).map((n) => turns(n + 1)),
  ...range(16).map((n) => millis(n * 2 + 1)),
];

/** How a request ended: answered, refused with a LiveError, or still pending after the wait. */
async function outcome(request: Promise<unknown>, waitMs = 2_000): Promise<string> {
  const pending = Symbol('pending');
  try {
    const result = await Promise.race([request, delay(waitMs).then(() => pending)]);
    return result === pending ? 'pending' : 'answered';
  } catch (error) {
    return error instanceof LiveError ? `refused ${error.code}` : `failed ${String(error)}`;
  }
}

// Students close (leave, are replaced, lose their socket) at any moment, also while werift is in the middle of a
// negotiation: every request still gets an answer, and nothing of the closed connection stays behind.
describe.each([
  { where: 'in the main thread', workers: 0, moments: IN_THREAD },
  { where: 'in two forwarding workers', workers: 2, moments: IN_WORKER },
])('closing a student mid-negotiation, $where', ({ workers, moments }) => {
  let setup: Awaited<ReturnType<typeof teachingServer>>;
  let baseline: {
    timers: number;
    sockets: number;
    peerConnections: number;
    listeners: number[];
    workers: WorkerCounts[];
  };
  let n = 0;
  beforeAll(async () => {
    setup = await teachingServer(workers, ['webcamVideo', 'webcamAudio']);
    await delay(200);
    baseline = {
      timers: resources('Timeout'),
      sockets: resources('UDPWRAP'),
      peerConnections: openPeerConnections(),
      listeners: setup.producers.map((p) => p.packet.size),
      workers: (await setup.server.forwarding?.counts()) ?? [],
    };
  });
  afterAll(() => setup.close());

  function join(): { peer: Peer; transport: ReceivingTransport } {
    const peer = setup.student(`s${(n += 1)}`);
    setup.room.addStudent(peer);
    return { peer, transport: peer.createConsumerTransport() };
  }

  it('closed while its transport is created and while consume makes the offer: consume is answered', async () => {
    const outcomes: string[] = [];
    const closeAt = async (moment: Moment) => {
      const { peer, transport } = join();
      const request = transport.consume(setup.room.currentProducers());
      await moment.wait();
      peer.close(n % 2 === 0 ? 'left' : 'replaced');
      outcomes.push(`${moment.name}: ${await outcome(request)}`);
    };
    for (const moment of moments) await closeAt(moment);
    // On a busy machine a worker may not have made its offer by the sweep's last moment: close later and later
    // (at most 4 s) until one close comes after the offer.
    for (let ms = 64; ms <= 4_096 && !outcomes.some((o) => o.endsWith('answered')); ms *= 2)
      await closeAt(millis(ms));
    expect(outcomes.filter((o) => !/: (answered|refused conflict)$/.test(o))).toEqual([]);
    // The sweep did reach into the negotiation: some closes came before the offer was made, some after.
    expect(outcomes.some((o) => o.endsWith('refused conflict'))).toBe(true);
    expect(outcomes.some((o) => o.endsWith('answered'))).toBe(true);
  });

  it("closed while the student's answer is applied: connect is answered", async () => {
    const outcomes: string[] = [];
    for (const moment of moments.filter((_, i) => i % 2 === 0)) {
      const { peer, transport } = join();
      const student = new SyntheticStudent();
      try {
        const { sdp } = await transport.consume(setup.room.currentProducers());
        const request = transport.connect(await student.answer(sdp));
        await moment.wait();
        peer.close('disconnected');
        outcomes.push(`${moment.name}: ${await outcome(request)}`);
      } finally {
        await student.close();
      }
    }
    expect(outcomes.filter((o) => !/: (answered|refused conflict)$/.test(o))).toEqual([]);
    expect(outcomes.some((o) => o.endsWith('refused conflict'))).toBe(true);
  });

  it('closed while consumers resume: answered; then nothing of any closed student is left', async () => {
    for (const moment of moments.filter((_, i) => i % 3 === 0)) {
      const { peer, transport } = join();
      const { consumers } = await transport.consume(setup.room.currentProducers());
      const requests = consumers.map((c) => transport.resume(c.consumerId));
      await moment.wait();
      peer.close('left');
      for (const request of requests) expect(await outcome(request)).toMatch(/^(answered|refused conflict)$/);
    }
    expect(setup.room.studentCount).toBe(0);
    const pool = setup.server.forwarding;
    if (pool) {
      await until(
        async () =>
          (await pool.counts()).every(
            (w, i) =>
              w.transports === 0 &&
              w.consumers === 0 &&
              w.packetListeners === 0 &&
              w.peerConnections === 0 &&
              w.sockets <= (baseline.workers[i]?.sockets ?? 0) &&
              w.timers <= (baseline.workers[i]?.timers ?? 0) + 2,
          ),
        10_000,
        'workers released everything',
      );
    }
    expect(setup.producers.map((p) => p.packet.size)).toEqual(baseline.listeners);
    // Closing a werift connection is asynchronous: its sockets and timers go within a moment.
    await until(() => openPeerConnections() === baseline.peerConnections, 5_000, 'peer connections closed');
    await until(() => resources('UDPWRAP') <= baseline.sockets, 10_000, 'UDP sockets released');
    await until(() => resources('Timeout') <= baseline.timers + 2, 10_000, 'timers released');
  });
});

describe("closing the teacher's transport mid-negotiation", () => {
  it('connectProducerTransport is answered at every moment, and no connection or timer is left', async () => {
    const timers = resources('Timeout');
    const peerConnections = openPeerConnections();
    const outcomes: string[] = [];
    for (const moment of IN_THREAD.filter((_, i) => i % 2 === 0)) {
      const teacher = new SyntheticTeacher();
      try {
        const peer = new Peer(
          { userId: 't', nickname: 't', role: 'teacher', classId: 1 },
          LOOPBACK_RTC,
          () => {},
        );
        const request = peer.createProducerTransport().connect(await teacher.offer());
        await moment.wait();
        peer.close('left');
        outcomes.push(`${moment.name}: ${await outcome(request)}`);
      } finally {
        await teacher.close();
      }
    }
    expect(outcomes.filter((o) => !/: (answered|refused conflict)$/.test(o))).toEqual([]);
    expect(outcomes.some((o) => o.endsWith('refused conflict'))).toBe(true);
    expect(outcomes.some((o) => o.endsWith('answered'))).toBe(true);
    await until(() => openPeerConnections() === peerConnections, 5_000, 'peer connections closed');
    await until(() => resources('Timeout') <= timers + 2, 10_000, 'timers released');
  });
});
