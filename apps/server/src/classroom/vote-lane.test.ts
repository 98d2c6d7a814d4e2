import { describe, expect, it } from 'vitest';
import { VoteLane } from './vote-lane.ts';

/** A task that runs until `finish` is called, recording how many tasks of the test were running at its start. */
function gate() {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish: () => finish() };
}

describe('VoteLane', () => {
  it('runs at most its width at once, the rest in arrival order', async () => {
    const lane = new VoteLane(2);
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const runs = gates.map((g, i) =>
      lane.run(async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await g.done;
        running -= 1;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[1]?.finish();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.finish();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('frees the place of a task that failed', async () => {
    const lane = new VoteLane(1);
    await expect(lane.run(() => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await lane.run(async () => 'next')).toBe('next');
  });

  it('refuses a width below 1', () => {
    expect(() => new VoteLane(0)).toThrow('at least 1');
  });
});
