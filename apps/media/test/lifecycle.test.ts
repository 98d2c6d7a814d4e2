import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPeerConnections } from '../src/rtc/peer-connection.ts';
import { teachingServer } from './teaching-server.ts';
import { delay, until } from './test-media-server.ts';

const resources = (kind: string) => process.getActiveResourcesInfo().filter((r) => r === kind).length;

type Setup = Awaited<ReturnType<typeof teachingServer>>;

/** A teacher's webcam on a server with `workers` forwarding workers, for the describe block that calls it. */
function teacherOnServer(workers: number): () => Setup {
  let setup: Setup | undefined;
  beforeAll(async () => {
    setup = await teachingServer(workers, ['webcamVideo', 'webcamAudio']);
  });
  afterAll(() => setup?.close());
  return () => {
    if (!setup) throw new Error('no teaching server');
    return setup;
  };
}

/**
 * 1000 students join and leave, every tenth after a real negotiation (UDP sockets, a timer, its consumers
 * resumed); `negotiated` runs after each of those.
 */
async function thousandJoinsAndLeaves({ room, student }: Setup, negotiated = () => {}): Promise<void> {
  for (let i = 0; i < 1000; i += 1) {
    const peer = student(`s${i}`);
    room.addStudent(peer);
    if (i % 10 === 0) {
      const transport = peer.createConsumerTransport();
      const { consumers } = await transport.consume(room.currentProducers());
      expect(consumers).toHaveLength(2);
      for (const { consumerId } of consumers) await transport.resume(consumerId);
      negotiated();
    }
    peer.close(i % 2 === 0 ? 'left' : 'disconnected');
  }
}

describe('lifecycle', () => {
  const setup = teacherOnServer(0);

  it('1000 joins and leaves leave no peer, consumer, timer, socket or subscription behind', async () => {
    const { server, room, producers } = setup();
    await delay(200);
    const baseline = {
      timers: resources('Timeout'),
      sockets: resources('UDPWRAP'),
      packetListeners: producers.map((p) => p.packet.size),
      closedListeners: producers.map((p) => p.closed.size),
      peerConnections: openPeerConnections(),
    };
    await thousandJoinsAndLeaves(setup(), () =>
      expect(producers.map((p) => p.packet.size)).toEqual(baseline.packetListeners.map((n) => n + 1)),
    );
    expect(room.studentCount).toBe(0);
    expect(producers.map((p) => p.packet.size)).toEqual(baseline.packetListeners);
    expect(producers.map((p) => p.closed.size)).toEqual(baseline.closedListeners);
    expect(openPeerConnections()).toBe(baseline.peerConnections);
    // Closing a werift connection is asynchronous: its sockets and timers go within a moment.
    await until(() => resources('UDPWRAP') <= baseline.sockets, 10_000, 'UDP sockets released');
    await until(() => resources('Timeout') <= baseline.timers + 2, 10_000, 'timers released');
    expect(server.roomCount).toBe(1);
  });

  it('closing the server closes rooms, producers and their subscriptions', async () => {
    const { server, producers } = setup();
    await server.close();
    expect(server.roomCount).toBe(0);
    for (const producer of producers) {
      expect(producer.isClosedNow).toBe(true);
      expect(producer.packet.size).toBe(0);
    }
  });
});

describe('lifecycle with forwarding workers', () => {
  const setup = teacherOnServer(2);

  it('1000 joins and leaves leave no transport, consumer, listener, stream, socket or timer behind in the workers', async () => {
    const { server, room, producers, student } = setup();
    const pool = server.forwarding;
    if (!pool) throw new Error('no workers');
    const baseline = await pool.counts();
    expect(baseline.map((w) => w.transports)).toEqual([0, 0]);
    await thousandJoinsAndLeaves(setup());
    expect(room.studentCount).toBe(0);
    // With no student left, no stream is fed to any worker (nor serialised for none).
    expect(pool.feedCount).toBe(0);
    expect(producers.map((p) => p.packet.size)).toEqual([0, 0]);
    await until(
      async () => {
        const counts = await pool.counts();
        return counts.every(
          (w, i) =>
            w.transports === 0 &&
            w.consumers === 0 &&
            w.streams === 0 &&
            w.packetListeners === 0 &&
            w.peerConnections === 0 &&
            w.sockets <= (baseline[i]?.sockets ?? 0) &&
            w.timers <= (baseline[i]?.timers ?? 0) + 2,
        );
      },
      10_000,
      'workers released everything',
    );
    // Students present together are spread over the workers.
    const together = [0, 1, 2, 3].map((i) => {
      const peer = student(`t${i}`);
      room.addStudent(peer);
      peer.createConsumerTransport();
      return peer;
    });
    expect((await pool.counts()).map((w) => w.transports)).toEqual([2, 2]);
    for (const peer of together) peer.close('left');
    await until(async () => (await pool.counts()).every((w) => w.transports === 0), 5_000, 'closed');
  });

  it('closing the server releases the streams and stops the workers', async () => {
    const { server, producers } = setup();
    const pool = server.forwarding;
    await server.close();
    expect(pool?.feedCount).toBe(0);
    for (const producer of producers) expect(producer.packet.size).toBe(0);
  });
});
