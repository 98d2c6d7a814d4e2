import type { Layer } from '@sea/contract/live';

/**
 * How long a teacher's video packet may have waited in a forwarding worker's queue and still be forwarded. A
 * worker that falls behind (its cores are full) would otherwise queue without bound: every packet later than
 * the one before, its students' ICE consent checks and DTLS handshakes waiting behind the backlog until their
 * connections fail.
 */
export const STALE_VIDEO_MS = 1_000;
/** `MEDIA_STALE_VIDEO_MS` overrides it (0: never drop), for the benchmark's alternating runs. */
const staleVideoMs = () => Number(process.env.MEDIA_STALE_VIDEO_MS ?? STALE_VIDEO_MS);
/** While a layer waits for a keyframe after a drop, the worker asks for one at most this often. */
export const KEYFRAME_AFTER_DROP_INTERVAL_MS = 1_000;

/** The wall clock in ms, comparable between threads (each thread has its own `performance.timeOrigin`). */
export const wallClockMs = () => performance.timeOrigin + performance.now();

/**
 * Decides, in a forwarding worker, whether a teacher's video packet is still worth forwarding. A packet that
 * waited longer than {@link STALE_VIDEO_MS} is dropped, and so is the rest of its layer until the start of a
 * keyframe (a picture with holes would only make the students ask again): a loaded worker sheds video and
 * catches up instead of queueing, its students see a few frames frozen and report the loss (their layer choice
 * goes down), and nobody's connection starves. Audio never goes through it.
 */
export class StaleVideoGate {
  /** Packets dropped so far. */
  dropped = 0;
  /** Per `stream:layer` waiting for a keyframe: when one was last asked for. */
  private readonly waiting = new Map<string, number>();
  private readonly askKeyframe: (streamId: string, layer: Layer) => void;
  private readonly limitMs: number;

  constructor(askKeyframe: (streamId: string, layer: Layer) => void, limitMs = staleVideoMs()) {
    this.askKeyframe = askKeyframe;
    this.limitMs = limitMs > 0 ? limitMs : Infinity;
  }

  /** Whether to forward a video packet posted at `sentAtMs` and handled at `nowMs` (both {@link wallClockMs}). */
  pass(streamId: string, layer: Layer, keyframeStart: boolean, sentAtMs: number, nowMs: number): boolean {
    const key = `${streamId}:${layer}`;
    if (nowMs - sentAtMs > this.limitMs) {
      this.dropped += 1;
      if (!this.waiting.has(key)) this.waiting.set(key, -Infinity);
      return false;
    }
    const askedAt = this.waiting.get(key);
    if (askedAt === undefined) return true;
    if (keyframeStart) {
      this.waiting.delete(key);
      return true;
    }
    this.dropped += 1;
    if (nowMs - askedAt >= KEYFRAME_AFTER_DROP_INTERVAL_MS) {
      this.waiting.set(key, nowMs);
      this.askKeyframe(streamId, layer);
    }
    return false;
  }

  /** The stream is gone from this worker. */
  forget(streamId: string): void {
    for (const key of [...this.waiting.keys()]) if (key.startsWith(`${streamId}:`)) this.waiting.delete(key);
  }
}
