/** The part of a writable stream the log destination uses (process.stdout in production). */
export type LineStream = {
  write(chunk: string): boolean;
  readonly writableLength: number;
  on(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'drain', listener: () => void): unknown;
  removeListener(event: 'drain', listener: () => void): unknown;
};

/** How much may wait for a slow reader before lines are dropped (a few thousand lines). */
export const MAX_PENDING_LOG_BYTES = 4 * 1024 * 1024;

/**
 * Where the server's log lines go (pino's destination): stdout, without ever blocking the process or holding
 * up its exit. pino's default destination flushes synchronously when the process exits and retries every
 * failed write without limit, so with a stdout nobody reads (a full pipe, EAGAIN, or a closed one, EPIPE) the
 * process never exited. Here lines go through the stream's own buffer; while a reader is that far behind,
 * lines are dropped and counted (one warning says how many once it reads again), a broken stdout drops
 * everything, and {@link flush} waits for the reader only as long as it is told.
 */
export class LogDestination {
  readonly #stream: LineStream;
  readonly #maxPendingBytes: number;
  #dropped = 0;
  #broken = false;

  constructor(stream: LineStream = process.stdout, maxPendingBytes = MAX_PENDING_LOG_BYTES) {
    this.#stream = stream;
    this.#maxPendingBytes = maxPendingBytes;
    // EPIPE and the like: nobody will ever read these lines (and without a listener the error would throw).
    stream.on('error', () => {
      this.#broken = true;
    });
  }

  /** Writes one line (pino calls this); never blocks, never throws. */
  write(line: string): void {
    if (this.#broken) return;
    if (this.#stream.writableLength > this.#maxPendingBytes) {
      this.#dropped += 1;
      return;
    }
    if (this.#dropped > 0) {
      const note = {
        level: 40,
        time: Date.now(),
        msg: `${this.#dropped} log lines dropped: stdout was not read`,
      };
      this.#dropped = 0;
      this.#stream.write(`${JSON.stringify(note)}\n`);
    }
    this.#stream.write(line);
  }

  /** Lines dropped since the last warning (tests). */
  get droppedLines(): number {
    return this.#dropped;
  }

  /** Resolves once every written line is out, or after `timeoutMs`, whichever comes first. */
  flush(timeoutMs: number): Promise<void> {
    if (this.#broken || this.#stream.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#stream.removeListener('drain', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#stream.once('drain', done);
    });
  }
}
