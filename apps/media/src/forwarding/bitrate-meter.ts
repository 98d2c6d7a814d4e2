/**
 * Bits per second over a sliding window, from byte counts added as packets arrive. Buckets of 100 ms in a ring
 * keep the cost constant per packet, without allocating: this runs per packet and student.
 */
export class BitrateMeter {
  private readonly windowMs: number;
  private readonly bucketMs = 100;
  /** Per ring slot: the bucket (`floor(ms / bucketMs)`) it counts now, and its bytes. */
  private readonly buckets: Float64Array;
  private readonly bytes: Float64Array;

  constructor(windowMs = 1_000) {
    this.windowMs = windowMs;
    const slots = Math.ceil(windowMs / this.bucketMs);
    this.buckets = new Float64Array(slots).fill(-Infinity);
    this.bytes = new Float64Array(slots);
  }

  add(bytes: number, nowMs: number): void {
    const bucket = Math.floor(nowMs / this.bucketMs);
    const slot = bucket % this.buckets.length;
    if (this.buckets[slot] !== bucket) {
      this.buckets[slot] = bucket;
      this.bytes[slot] = 0;
    }
    this.bytes[slot] = (this.bytes[slot] ?? 0) + bytes;
  }

  /** The bitrate of the last window, in bit/s. */
  bps(nowMs: number): number {
    const oldest = Math.floor((nowMs - this.windowMs) / this.bucketMs);
    let bytes = 0;
    for (let slot = 0; slot < this.buckets.length; slot += 1) {
      if ((this.buckets[slot] ?? -Infinity) > oldest) bytes += this.bytes[slot] ?? 0;
    }
    return (bytes * 8 * 1000) / this.windowMs;
  }
}
