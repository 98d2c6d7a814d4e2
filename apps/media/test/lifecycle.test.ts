import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPeerConnections } from '../src/rtc/peer-connection.ts';
import { teachingServer } from './teaching-server.ts';
import { delay, until } from './test-media-server.ts';

const resources = (kind: string) => process.getActiveResourcesInfo().filter((r) => r === kind).length;

describe('lifecycle', () => {
  let setup: Awaited<ReturnType<typeof teachingServer>>;
  beforeAll(async () => {
    setup = await teachingServer(0, ['webcamVideo', 'webcamAudio']);
  });
  afterAll(() => setup.close());

  it('1000 joins and leaves leave no peer, consumer, timer, socket or subscription behind', async () => {
    const { server, room, producers } = setup;
    await delay(200);
    const baseline = {
      timers: resources('Timeout'),
      sockets: resources('UDPWRAP'),
      packetListeners: producers.map((p) => p.packet.size),
      closedListeners: producers.map((p) => p.closed.size),
      peerConnections: openPeerConnections(),
    };
    for (let i = 0; i < 1000; i += 1) {
      const peer = setup.student(`s${i}`);
      room.addStudent(peer);
      // Every tenth student goes as far as a real negotiation (UDP sockets, a timer, consumers).
      if (i % 10 === 0) {
        const transport = peer.createConsumerTransport();
        const { consumers } = await transport.consume(room.currentProducers());
        expect(consumers).toHaveLength(2);
        for (const { consumerId } of consumers) await transport.resume(consumerId);
        expect(producers.map((p) => p.packet.size)).toEqual(baseline.packetListeners.map((n) => n + 1));
      }
      peer.close(i % 2 === 0 ? 'left' : 'disconnected');
    }
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
    const { server, producers } = setup;
    await server.close();
    expect(server.roomCount).toBe(0);
    for (const producer of producers) {
      expect(producer.isClosedNow).toBe(true);
      expect(producer.packet.size).toBe(0);
    }
  });
});

describe('lifecycle with forwarding workers', () => {
  let setup: Awaited<ReturnType<typeof teachingServer>>;
  beforeAll(async () => {
    setup = await teachingServer(2, ['webcamVideo', 'webcamAudio']);
  });
  afterAll(() => setup.close());

  it('1000 joins and leaves leave no transport, consumer, listener, stream, socket or timer behind in the workers', async () => {
    const { server, room, producers } = setup;
    const pool = server.forwarding;
    if (!pool) throw new Error('no workers');
    const baseline = await pool.counts();
    expect(baseline.map((w) => w.transports)).toEqual([0, 0]);
    for (let i = 0; i < 1000; i += 1) {
      const peer = setup.student(`s${i}`);
      room.addStudent(peer);
      if (i % 10 === 0) {
        const transport = peer.createConsumerTransport();
        const { consumers } = await transport.consume(room.currentProducers());
        expect(consumers).toHaveLength(2);
        for (const { consumerId } of consumers) await transport.resume(consumerId);
      }
      peer.close(i % 2 === 0 ? 'left' : 'disconnected');
    }
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
      const peer = setup.student(`t${i}`);
      room.addStudent(peer);
      peer.createConsumerTransport();
      return peer;
    });
    expect((await pool.counts()).map((w) => w.transports)).toEqual([2, 2]);
    for (const peer of together) peer.close('left');
    await until(async () => (await pool.counts()).every((w) => w.transports === 0), 5_000, 'closed');
  });

  it('closing the server releases the streams and stops the workers', async () => {
    const { server, producers } = setup;
    const pool = server.forwarding;
    await server.close();
    expect(pool?.feedCount).toBe(0);
    for (const producer of producers) expect(producer.packet.size).toBe(0);
  });
});
