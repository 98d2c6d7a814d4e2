/**
 * Runs a task one run at a time, and makes the calls that come while a run waits to start share that run: a
 * burst of changes costs one renegotiation. A run that fails is handed to `failed`, unless `over()` says the
 * owner has ended meanwhile (then nothing is told); `over()` also stops new runs from being scheduled.
 */
export class CoalescedRuns {
  private readonly task: () => Promise<void>;
  private readonly failed: (error: unknown) => void;
  private readonly over: () => boolean;
  private chain: Promise<void> = Promise.resolve();
  private pending = false;

  constructor(task: () => Promise<void>, failed: (error: unknown) => void, over: () => boolean) {
    this.task = task;
    this.failed = failed;
    this.over = over;
  }

  /** Runs the task after the run in progress, unless a run is already waiting. */
  schedule(): void {
    if (this.pending || this.over()) return;
    this.pending = true;
    this.chain = this.chain.then(async () => {
      this.pending = false;
      try {
        await this.task();
      } catch (error) {
        if (!this.over()) this.failed(error);
      }
    });
  }
}
