/**
 * Bits per second over a sliding window, from byte counts added as packets arrive. Buckets of 100 ms keep the
 * cost constant per packet.
 */
export class BitrateMeter {
  private readonly windowMs: number;
  private readonly bucketMs = 100;
  private readonly buckets = new Map<number, number>();

  constructor(windowMs = 1_000) {
    this.windowMs = windowMs;
  }

  add(bytes: number, nowMs: number): void {
    const bucket = Math.floor(nowMs / this.bucketMs);
    this.buckets.set(bucket, (this.buckets.get(bucket) ?? 0) + bytes);
    this.prune(nowMs);
  }

  /** The bitrate of the last window, in bit/s. */
  bps(nowMs: number): number {
    this.prune(nowMs);
    let bytes = 0;
    for (const value of this.buckets.values()) bytes += value;
    return (bytes * 8 * 1000) / this.windowMs;
  }

  private prune(nowMs: number): void {
    const oldest = Math.floor((nowMs - this.windowMs) / this.bucketMs);
    for (const bucket of this.buckets.keys()) {
      if (bucket > oldest) break;
      this.buckets.delete(bucket);
    }
  }
}
