import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LatestStateThrottle } from './latest-state-throttle.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A key whose state is a counter; each publication records the state it read and when. */
function setUp() {
  const throttle = new LatestStateThrottle<number>({
    perSecond: 4,
    log: (_level, message, error) => {
      throw new Error(`${message}: ${String(error)}`);
    },
  });
  let state = 0;
  const published: Array<{ at: number; state: number }> = [];
  const publish = async (): Promise<void> => {
    const read = state;
    await Promise.resolve();
    published.push({ at: Date.now(), state: read });
  };
  return {
    throttle,
    published,
    change: (now = false) => {
      state += 1;
      if (now) throttle.changedNow(1, publish);
      else throttle.changed(1, publish);
    },
  };
}

describe('LatestStateThrottle', () => {
  it('publishes the first change at once and a burst as at most 4 a second, the last with every change', async () => {
    const { published, change } = setUp();
    const start = Date.now();
    change();
    await vi.advanceTimersByTimeAsync(0);
    expect(published).toEqual([{ at: start, state: 1 }]);
    // Two hundred changes over one second.
    for (let i = 0; i < 200; i += 1) {
      change();
      await vi.advanceTimersByTimeAsync(5);
    }
    await vi.advanceTimersByTimeAsync(1_000);
    expect(published.length).toBeLessThanOrEqual(1 + 5);
    expect(published.at(-1)?.state).toBe(201);
    const gaps = published.slice(1).map((p, i) => p.at - (published[i]?.at ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(250);
  });

  it('publishes a change that must be told at once after a pending one, and ends with the latest state', async () => {
    const { published, change } = setUp();
    change();
    await vi.advanceTimersByTimeAsync(0);
    change();
    // Closed before the slot of the previous change: it is told now, the pending slot is not needed.
    change(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(published.map((p) => p.state)).toEqual([1, 3]);
  });

  it('publishes nothing after close', async () => {
    const { throttle, published, change } = setUp();
    change();
    await vi.advanceTimersByTimeAsync(0);
    change();
    throttle.close();
    change();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(published).toHaveLength(1);
  });
});
