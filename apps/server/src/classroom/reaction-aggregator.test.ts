import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReactionAggregator, type Counts } from './reaction-aggregator.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function recording(perSecond = 4) {
  const flushes: Array<{ at: number; roomId: number; counts: Counts }> = [];
  const aggregator = new ReactionAggregator({
    perSecond,
    now: () => Date.now(),
    flush: (roomId, counts) => flushes.push({ at: Date.now(), roomId, counts }),
  });
  return { aggregator, flushes };
}

describe('ReactionAggregator', () => {
  it('sends the first reaction at once and then at most 4 sums a second per room, losing none', async () => {
    const { aggregator, flushes } = recording();
    const start = Date.now();
    // 1 000 reactions over two seconds, one every 2 ms, in two rooms.
    for (let i = 0; i < 1000; i += 1) {
      aggregator.add(i % 2 === 0 ? 1 : 2, { '👍': 1 });
      await vi.advanceTimersByTimeAsync(2);
    }
    await vi.advanceTimersByTimeAsync(1000);
    for (const roomId of [1, 2]) {
      const mine = flushes.filter((flush) => flush.roomId === roomId);
      expect(mine.reduce((sum, flush) => sum + (flush.counts['👍'] ?? 0), 0)).toBe(500);
      expect(mine.length).toBeLessThanOrEqual(9);
      // Slots of 275 ms, a margin over 250 for the delivery's unevenness: never 5 in one second at a member.
      for (let i = 1; i < mine.length; i += 1) {
        expect((mine[i]?.at ?? 0) - (mine[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(275);
      }
    }
    expect((flushes[0]?.at ?? Infinity) - start).toBeLessThanOrEqual(2);
  });

  it('sums each emoji apart and forgets a quiet room', async () => {
    const { aggregator, flushes } = recording();
    aggregator.add(1, { '👍': 1 });
    aggregator.add(1, { '❤️': 2 });
    await vi.advanceTimersByTimeAsync(0);
    aggregator.add(1, { '❤️': 1 });
    aggregator.add(1, { '👍': 3 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(flushes.map((flush) => flush.counts)).toEqual([
      { '👍': 1, '❤️': 2 },
      { '❤️': 1, '👍': 3 },
    ]);
    expect(vi.getTimerCount()).toBe(0);
    aggregator.close();
  });
});
