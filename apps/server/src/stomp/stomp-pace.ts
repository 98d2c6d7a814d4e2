import type { StompSessionOptions, StompTransport } from './stomp-session-options.ts';

type PaceOptions = Pick<
  StompSessionOptions,
  'heartbeatTolerance' | 'slowBufferedBytes' | 'maxBufferedBytes' | 'maxSlowMs'
>;

/**
 * The pace of one session's socket: the deadline of CONNECT, the heart-beats each way that CONNECT agreed on,
 * and whether the peer has fallen too far behind what it is sent. It keeps the times and the timers and
 * answers; the session acts.
 */
export class StompPace {
  readonly #options: PaceOptions;
  readonly #transport: Pick<StompTransport, 'bufferedBytes'>;
  /** How often the server sends a heart-beat, and the peer promised to send something (0: never). */
  #sendEveryMs = 0;
  #expectEveryMs = 0;
  #lastReceived = Date.now();
  #lastSent = Date.now();
  #slowSince: number | null = null;
  #connectTimer: ReturnType<typeof setTimeout> | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;

  constructor(options: PaceOptions, transport: Pick<StompTransport, 'bufferedBytes'>) {
    this.#options = options;
    this.#transport = transport;
  }

  /** Calls `late` unless {@link connected} comes within `ms`. */
  awaitConnect(ms: number, late: () => void): void {
    this.#connectTimer = setTimeout(late, ms);
  }

  /** CONNECT was accepted with these heart-beat intervals: its deadline goes. */
  connected(sendEveryMs: number, expectEveryMs: number): void {
    this.#clearConnect();
    this.#sendEveryMs = sendEveryMs;
    this.#expectEveryMs = expectEveryMs;
  }

  /** Runs `tick` from now on, at half the shortest interval watched, so no heart-beat gap exceeds its own. */
  beat(tick: () => void): void {
    const periods = [this.#sendEveryMs, this.#expectEveryMs, this.#options.maxSlowMs].filter((ms) => ms > 0);
    this.#timer = setInterval(tick, Math.max(10, Math.min(...periods) / 2));
    // The timer must not keep a process alive that is otherwise shutting down.
    this.#timer.unref?.();
  }

  /** Stops both timers: the session closed. */
  stop(): void {
    this.#clearConnect();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  received(now: number): void {
    this.#lastReceived = now;
  }

  sent(now: number): void {
    this.#lastSent = now;
  }

  /** True when the peer has been silent for longer than its heart-beats allow. */
  silent(now: number): boolean {
    const expectEveryMs = this.#expectEveryMs;
    return expectEveryMs > 0 && now - this.#lastReceived > expectEveryMs * this.#options.heartbeatTolerance;
  }

  /** True when a heart-beat is due: sent early rather than late. */
  heartbeatDue(now: number): boolean {
    return this.#sendEveryMs > 0 && now - this.#lastSent >= this.#sendEveryMs / 2;
  }

  /**
   * The bytes its socket holds when the peer cannot keep up (over the cap, or over the slow mark for too
   * long), else null.
   */
  tooSlow(now: number): number | null {
    const buffered = this.#transport.bufferedBytes();
    if (buffered <= this.#options.slowBufferedBytes) {
      this.#slowSince = null;
      return null;
    }
    this.#slowSince ??= now;
    const over = buffered > this.#options.maxBufferedBytes || now - this.#slowSince > this.#options.maxSlowMs;
    return over ? buffered : null;
  }

  #clearConnect(): void {
    if (this.#connectTimer) clearTimeout(this.#connectTimer);
    this.#connectTimer = null;
  }
}
