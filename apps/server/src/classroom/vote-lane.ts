/**
 * How many of the database pool's connections the room's votes (poll answers, question upvotes) may use at once.
 * The pool has 20 (`db/open-database.ts`); the rest stay free for what one person waits for, such as a question
 * reaching the teacher. In the classroom bench's storm (200 students answering and upvoting at once, load
 * average 6-8) a question's p99 from SEND to the teacher went from 0.74-0.77 s to 0.20-0.24 s with 6.
 */
export const VOTE_CONNECTIONS = 6;

/**
 * A lane for votes: at most `width` run their queries at once, the others wait in arrival order. A class of a
 * thousand voting in the same second then queues here, in its own lane, instead of in front of everything
 * else in the pool's queue. A vote that fails frees its place like one that succeeds.
 */
export class VoteLane {
  readonly #width: number;
  readonly #waiting: (() => void)[] = [];
  #running = 0;

  constructor(width = VOTE_CONNECTIONS) {
    if (!Number.isInteger(width) || width < 1)
      throw new Error(`a lane needs a width of at least 1: ${width}`);
    this.#width = width;
  }

  /** Runs `task` once fewer than `width` tasks of the lane are running. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running < this.#width) this.#running += 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The place passes to the next in line, or is freed.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}
