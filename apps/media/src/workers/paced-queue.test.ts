import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { PacedQueue, TURN_MS } from './paced-queue.ts';

/** Work that keeps the thread busy for `ms`, as forwarding one packet to many students does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('PacedQueue', () => {
  it('runs every item once, in order', async () => {
    const done: number[] = [];
    const queue = new PacedQueue<number>((n) => {
      done.push(n);
      busy(0.05);
    });
    for (let i = 0; i < 2_000; i += 1) queue.push(i);
    expect(done).toEqual([]); // pushing only queues
    while (queue.length > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(done).toEqual(Array.from({ length: 2_000 }, (_, i) => i));
  });

  it('lets a datagram that arrives behind a backlog be read within a turn or two', async () => {
    const receiver = createSocket('udp4');
    const sender = createSocket('udp4');
    await new Promise<void>((resolve) => receiver.bind(0, '127.0.0.1', resolve));
    let ran = 0;
    const queue = new PacedQueue<number>(() => {
      ran += 1;
      busy(1);
    });
    // 300 ms of queued work, then a datagram (a student's ICE check) on the thread's socket.
    for (let i = 0; i < 300; i += 1) queue.push(i);
    const read = new Promise<number>((resolve) => receiver.once('message', () => resolve(ran)));
    sender.send(Buffer.from('stun'), receiver.address().port, '127.0.0.1');
    const ranBeforeRead = await read;
    expect(ranBeforeRead).toBeLessThanOrEqual(3 * (TURN_MS + 1));
    while (queue.length > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toBe(300);
    receiver.close();
    sender.close();
  });

  it('goes on with the rest of the queue after an item throws', async () => {
    const done: number[] = [];
    const queue = new PacedQueue<number>((n) => {
      if (n === 1) throw new Error('one');
      done.push(n);
    });
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.prependListener('uncaughtException', onError);
    try {
      for (const n of [0, 1, 2, 3]) queue.push(n);
      while (queue.length > 0) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(done).toEqual([0, 2, 3]);
    expect(errors).toHaveLength(1);
  });
});

describe('PacedQueue priorities', () => {
  it('runs urgent items ahead of queued ones, each lane in order', async () => {
    const done: string[] = [];
    const queue = new PacedQueue<string>((item) => {
      done.push(item);
      busy(0.5);
    });
    for (let i = 0; i < 20; i += 1) queue.push(`v${i}`);
    queue.push('a0', true);
    queue.push('a1', true);
    while (queue.length > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(done.slice(0, 2)).toEqual(['a0', 'a1']);
    expect(done.slice(2)).toEqual(Array.from({ length: 20 }, (_, i) => `v${i}`));
  });
});
