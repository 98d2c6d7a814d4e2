/** The most votes one statement takes (three parameters each, far below PostgreSQL's 65 535). */
export const MAX_VOTES_PER_BATCH = 500;

type Waiting<V, R> = { vote: V; resolve: (result: R) => void; reject: (error: unknown) => void };

/**
 * Votes (poll answers, question upvotes) taken to the database together. The first vote goes at once, alone;
 * the votes that arrive while a batch is in the database wait and go as the next batch, in one statement, so
 * a thousand members answering in the same second make a few dozen statements instead of a thousand, and use
 * one of the pool's connections at a time: the rest stay free for what one person waits for, such as a
 * question on its way to the teacher (bench/classroom). In a quiet room a vote waits for nothing.
 *
 * `store` answers one result per vote, in the batch's order. When a batch fails, each of its votes is tried
 * again alone, so that one bad vote (a question deleted meanwhile) fails only itself.
 */
export class VoteBatches<V, R> {
  readonly #store: (votes: readonly V[]) => Promise<readonly R[]>;
  readonly #waiting: Waiting<V, R>[] = [];
  #running = false;

  constructor(store: (votes: readonly V[]) => Promise<readonly R[]>) {
    this.#store = store;
  }

  /** Stores `vote` with the batch it joins; its own result, or the error that stored it. */
  add(vote: V): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ vote, resolve, reject });
      this.#next();
    });
  }

  #next(): void {
    if (this.#running || this.#waiting.length === 0) return;
    const batch = this.#waiting.splice(0, MAX_VOTES_PER_BATCH);
    this.#running = true;
    void this.#settle(batch).finally(() => {
      this.#running = false;
      this.#next();
    });
  }

  async #settle(batch: readonly Waiting<V, R>[]): Promise<void> {
    try {
      const results = await this.#storeAll(batch.map((waiting) => waiting.vote));
      batch.forEach((waiting, i) => waiting.resolve(results[i] as R));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      for (const waiting of batch) {
        await this.#storeAll([waiting.vote]).then(([result]) => waiting.resolve(result as R), waiting.reject);
      }
    }
  }

  async #storeAll(votes: readonly V[]): Promise<readonly R[]> {
    const results = await this.#store(votes);
    if (results.length !== votes.length) {
      throw new Error(`a batch of ${votes.length} votes answered ${results.length} results`);
    }
    return results;
  }
}
