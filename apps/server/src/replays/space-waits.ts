import type { Database } from '../db/database.ts';
import { hurryJobs } from '../jobs/job-queue.ts';
import { diskSpace } from '../storage/disk-space.ts';

/**
 * The replays waiting for disk space on this server, each with what it needs. `check()` makes the queued replay
 * jobs due at once when the replays' disk has room for one of them again (instead of at their backoff).
 */
export class SpaceWaits {
  readonly #needs = new Map<number, number>();
  readonly #db: Database;
  readonly #replaysDir: string;
  readonly #kind: string;

  constructor(db: Database, replaysDir: string, kind: string) {
    this.#db = db;
    this.#replaysDir = replaysDir;
    this.#kind = kind;
  }

  /** The replay of `sessionId` waits for `neededBytes` free. */
  waiting(sessionId: number, neededBytes: number): void {
    this.#needs.set(sessionId, neededBytes);
  }

  /** It waits no more (made, failed, or it had room). */
  done(sessionId: number): void {
    this.#needs.delete(sessionId);
  }

  get size(): number {
    return this.#needs.size;
  }

  /** Hurries the waiting jobs when the smallest need fits; answers how many jobs were made due. */
  async check(): Promise<number> {
    if (this.#needs.size === 0) return 0;
    const space = await diskSpace(this.#replaysDir);
    const smallest = Math.min(...this.#needs.values());
    if (!space || space.freeBytes < smallest) return 0;
    this.#needs.clear();
    return hurryJobs(this.#db, this.#kind);
  }
}
