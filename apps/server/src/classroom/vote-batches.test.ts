import { describe, expect, it } from 'vitest';
import { VoteBatches } from './vote-batches.ts';

/** A store whose statements finish when the test says, recording each batch it was given. */
function heldStore(fails: (vote: number) => boolean = () => false) {
  const batches: number[][] = [];
  const finishes: (() => void)[] = [];
  const store = async (votes: readonly number[]): Promise<string[]> => {
    batches.push([...votes]);
    await new Promise<void>((resolve) => finishes.push(resolve));
    if (votes.some(fails)) throw new Error(`vote ${votes.find(fails)} failed`);
    return votes.map((vote) => `stored ${vote}`);
  };
  const finishAll = async () => {
    while (finishes.length > 0) {
      finishes.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return { batches, store, finishAll };
}

describe('VoteBatches', () => {
  it('sends the first vote alone and those that came meanwhile together, in order', async () => {
    const { batches, store, finishAll } = heldStore();
    const votes = new VoteBatches(store);
    const results = [1, 2, 3, 4].map((vote) => votes.add(vote));
    expect(batches).toEqual([[1]]);
    await finishAll();
    expect(await Promise.all(results)).toEqual(['stored 1', 'stored 2', 'stored 3', 'stored 4']);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    // Quiet again: the next vote goes at once, alone.
    const fifth = votes.add(5);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
    await finishAll();
    expect(await fifth).toBe('stored 5');
  });

  it('tries each vote of a failed batch alone, so only the bad one fails', async () => {
    const { batches, store, finishAll } = heldStore((vote) => vote === 3);
    const votes = new VoteBatches(store);
    const results = [1, 2, 3, 4].map((vote) => votes.add(vote).catch((error: Error) => error.message));
    const finishing = (async () => {
      for (let i = 0; i < 10; i++) await finishAll();
    })();
    expect(await Promise.all(results)).toEqual(['stored 1', 'stored 2', 'vote 3 failed', 'stored 4']);
    await finishing;
    expect(batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('refuses a store that answers another number of results', async () => {
    const votes = new VoteBatches(async (batch: readonly number[]) => batch.slice(1));
    await expect(votes.add(1)).rejects.toThrow('a batch of 1 votes answered 0 results');
  });
});
