/** Requests of one layer closer together than this are merged into one. */
export const MIN_KEYFRAME_REQUEST_INTERVAL_MS = 300;

/**
 * Keyframe requests (PLI) for one layer, coalesced: any number of students asking at once costs the teacher
 * one keyframe, at most one request per interval goes upstream, and while someone still waits the request is
 * repeated (a PLI or the keyframe itself may be lost).
 */
export class KeyframeRequester {
  private readonly send: () => void;
  private readonly intervalMs: number;
  private lastSentAt: number | null = null;
  private waiting = false;

  constructor(send: () => void, intervalMs = MIN_KEYFRAME_REQUEST_INTERVAL_MS) {
    this.send = send;
    this.intervalMs = intervalMs;
  }

  /** Someone needs a keyframe. Sends now unless a request went out less than an interval ago. */
  request(nowMs: number): boolean {
    this.waiting = true;
    return this.flush(nowMs);
  }

  /** A keyframe arrived: nobody waits any more. */
  keyframeArrived(): void {
    this.waiting = false;
  }

  /** Called periodically: repeats the request while someone waits. Returns whether it sent. */
  tick(nowMs: number): boolean {
    return this.waiting ? this.flush(nowMs) : false;
  }

  /** Whether a keyframe is awaited. */
  get isWaiting(): boolean {
    return this.waiting;
  }

  private flush(nowMs: number): boolean {
    if (this.lastSentAt !== null && nowMs - this.lastSentAt < this.intervalMs) return false;
    this.lastSentAt = nowMs;
    this.send();
    return true;
  }
}
