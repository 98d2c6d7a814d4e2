import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PeerCloseReason } from '../src/peer.ts';
import type { ReceivingCloseReason } from '../src/rtc/receiving-transport.ts';
import type { ForwardingPool } from '../src/workers/forwarding-pool.ts';
import { SyntheticStudent } from './synthetic-student.ts';
import { teachingServer } from './teaching-server.ts';
import { delay, until } from './test-media-server.ts';

/** The thread behind a pool's first worker (private: a test reaches in to make it crash). */
const firstThread = (pool: ForwardingPool) =>
  (pool as unknown as { workers: { thread: Worker }[] }).workers[0]?.thread;

describe('forwarding pool', () => {
  let setup: Awaited<ReturnType<typeof teachingServer>>;
  const students: SyntheticStudent[] = [];
  beforeAll(async () => {
    setup = await teachingServer(1, ['webcamVideo']);
  });
  afterAll(async () => {
    await setup.close();
    for (const student of students) await student.close();
  });

  /** A student in the room whose video arrives through the worker. */
  async function watch(userId: string) {
    const { room } = setup;
    const peer = setup.student(userId);
    room.addStudent(peer);
    const student = new SyntheticStudent();
    students.push(student);
    const transport = peer.createConsumerTransport();
    const { sdp, consumers } = await transport.consume(room.currentProducers());
    await transport.connect(await student.answer(sdp));
    for (const { consumerId } of consumers) await transport.resume(consumerId);
    const mid = consumers[0]?.mid ?? '';
    await until(() => student.packets(mid).length > 10, 5_000, `${userId}'s video`);
    return { peer, transport };
  }

  it('refuses a call about an unknown consumer with the same error as in the main thread', async () => {
    const { peer, transport } = await watch('s1');
    await expect(transport.resume('nobody')).rejects.toMatchObject({ code: 'notFound' });
    peer.close('left');
  });

  it('stops feeding a worker a stream once its last student of it left, and feeds it again for a new one', async () => {
    const pool = setup.server.forwarding;
    if (!pool) throw new Error('no workers');
    const [producer] = setup.producers;
    const { peer } = await watch('s4');
    const [fed] = await pool.counts();
    expect(fed).toMatchObject({ transports: 1, streams: 1 });
    peer.close('left');
    await until(async () => (await pool.counts())[0]?.streams === 0, 2_000, 'the stream forgotten');
    expect(pool.feedCount).toBe(0);
    expect(producer?.packet.size).toBe(0);
    // Nothing more arrives in the worker while nobody there watches (the teacher sends 30 frames a second).
    const before = (await pool.counts())[0]?.packetsReceived;
    await delay(300);
    expect((await pool.counts())[0]?.packetsReceived).toBe(before);
    const again = await watch('s5'); // its video arrives: the stream was described again, before its packets
    expect((await pool.counts())[0]).toMatchObject({ transports: 1, streams: 1 });
    again.peer.close('left');
  });

  it('replaces a crashed worker: its students lose their transport and leave the room, new students are served', async () => {
    const pool = setup.server.forwarding;
    if (!pool) throw new Error('no workers');
    const { peer } = await watch('s2');
    const students = setup.room.studentCount;
    const lost = new Promise<ReceivingCloseReason>((resolve) => peer.receiving?.closed.subscribe(resolve));
    const left = new Promise<PeerCloseReason>((resolve) => peer.closed.subscribe(resolve));
    await firstThread(pool)?.terminate(); // as if the thread had crashed: the pool did not ask it to stop
    expect(await lost).toBe('workerLost');
    // The student leaves the room at once (the signalling side then makes its client reconnect and rejoin).
    expect(await left).toBe('mediaLost');
    expect(peer.receiving).toBeNull();
    expect(setup.room.studentCount).toBe(students - 1);
    await watch('s3');
    expect((await pool.counts()).map((w) => w.transports)).toEqual([1]);
  });
});
