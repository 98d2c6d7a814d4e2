import { describe, expect, it } from 'vitest';
import { CoalescedRuns } from './coalesced-runs.ts';

const settle = async () => {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
};

describe('CoalescedRuns', () => {
  it('runs one at a time, calls while a run waits sharing it, and tells a failure unless over', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    let over = false;
    let fail = false;
    let release: () => void = () => {};
    const failures: unknown[] = [];
    const coalesced = new CoalescedRuns(
      async () => {
        running += 1;
        most = Math.max(most, running);
        runs += 1;
        await new Promise<void>((resolve) => (release = resolve));
        running -= 1;
        if (fail) throw new Error('renegotiation failed');
      },
      (error) => failures.push(error),
      () => over,
    );
    coalesced.schedule();
    await settle();
    expect(runs).toBe(1);
    // While the first runs, three calls make one more run, after it.
    coalesced.schedule();
    coalesced.schedule();
    coalesced.schedule();
    await settle();
    expect(runs).toBe(1);
    release();
    await settle();
    expect(runs).toBe(2);
    fail = true;
    release();
    await settle();
    expect(failures).toHaveLength(1);
    expect(most).toBe(1);

    // Over: a failure is not told, and nothing more is scheduled.
    coalesced.schedule();
    await settle();
    over = true;
    release();
    await settle();
    expect(failures).toHaveLength(1);
    coalesced.schedule();
    await settle();
    expect(runs).toBe(3);
  });
});
