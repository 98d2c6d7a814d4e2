import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NackTracker } from './nack-tracker.ts';

describe('NackTracker', () => {
  it('asks for the packets of a gap, once, then again after the retry interval', () => {
    const nack = new NackTracker({ retryIntervalMs: 40 });
    nack.receive(100, 0);
    nack.receive(101, 1);
    nack.receive(104, 2);
    expect(nack.due(3)).toEqual([102, 103]);
    expect(nack.due(20)).toEqual([]);
    nack.receive(102, 30);
    expect(nack.due(43)).toEqual([103]);
    nack.receive(103, 50);
    expect(nack.missingCount).toBe(0);
    expect(nack.due(200)).toEqual([]);
  });

  it('measures gaps across the 16-bit wraparound', () => {
    const nack = new NackTracker();
    nack.receive(65_534, 0);
    nack.receive(1, 1);
    expect(nack.due(2)).toEqual([65_535, 0]);
  });

  it('gives up after the retry limit', () => {
    const nack = new NackTracker({ retryIntervalMs: 10, maxRetries: 3, maxAgeMs: 10_000 });
    nack.receive(1, 0);
    nack.receive(3, 0);
    const asked = [0, 10, 20, 30, 40, 50].map((t) => nack.due(t).length);
    expect(asked).toEqual([1, 1, 1, 0, 0, 0]);
    expect(nack.missingCount).toBe(0);
  });

  it('gives up packets older than the age limit', () => {
    const nack = new NackTracker({ maxAgeMs: 100 });
    nack.receive(1, 0);
    nack.receive(5, 0);
    expect(nack.due(101)).toEqual([]);
    expect(nack.missingCount).toBe(0);
  });

  it('treats a huge jump as a restart, not as loss', () => {
    const nack = new NackTracker({ maxGap: 1000 });
    nack.receive(10, 0);
    nack.receive(20_000, 0);
    expect(nack.due(1)).toEqual([]);
  });

  it('bounds what it tracks, dropping the oldest first', () => {
    const nack = new NackTracker({ maxMissing: 5, maxGap: 1000 });
    nack.receive(0, 0);
    nack.receive(10, 0);
    expect(nack.due(1)).toEqual([5, 6, 7, 8, 9]);
  });

  it('counts expected and lost packets for the loss estimate', () => {
    const nack = new NackTracker();
    for (const seq of [1, 2, 3, 6, 7, 5]) nack.receive(seq, 0);
    expect(nack.takeCounts()).toEqual({ expected: 7, lost: 2 });
    expect(nack.takeCounts()).toEqual({ expected: 0, lost: 0 });
  });

  it('asks exactly for the packets that never arrived, whatever the start and order (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 65_535 }),
        fc.array(fc.boolean(), { minLength: 2, maxLength: 300 }),
        (start, delivered) => {
          const nack = new NackTracker({ maxMissing: 1000 });
          const seqs = delivered.map((_, i) => (start + i) & 0xffff);
          // The first and last always arrive, so every hole lies between known packets.
          const arrives = delivered.map((d, i) => d || i === 0 || i === delivered.length - 1);
          seqs.forEach((seq, i) => arrives[i] && nack.receive(seq, 0));
          const expected = seqs.filter((_, i) => !arrives[i]);
          expect(nack.due(0).sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
        },
      ),
    );
  });
});
