/**
 * A student's starting estimate: enough for `h` beside the screen share and both audio streams (about 540 kbit/s
 * from Chrome), so a new student starts sharp without flooding.
 */
export const DOWNLINK_START_BPS = 1_100_000;
export const DOWNLINK_MIN_BPS = 50_000;
export const DOWNLINK_MAX_BPS = 10_000_000;

/**
 * A student's downstream bandwidth, from their receiver reports (loss) and REMB. Loss drives it like GCC's loss
 * controller (down above 10%, up 5% per report below 2%). REMB only lowers it, and only when it is clearly
 * below what is being sent (the receiver saw delay build up): a receiver's REMB otherwise tracks about 1.5x its
 * incoming rate and would pin a student to the layer they already get.
 */
export class DownlinkEstimator {
  private estimate = DOWNLINK_START_BPS;

  /** A receiver report's fraction lost (0..1). */
  onLoss(fraction: number): number {
    if (fraction > 0.1) this.estimate *= 1 - 0.5 * fraction;
    else if (fraction < 0.02) this.estimate *= 1.05;
    return this.clamp();
  }

  /** A REMB from the student, with the bitrate currently sent to them. */
  onRemb(rembBps: number, sentBps: number): number {
    if (rembBps < sentBps * 0.85) this.estimate = Math.min(this.estimate, rembBps);
    return this.clamp();
  }

  get bps(): number {
    return this.estimate;
  }

  private clamp(): number {
    this.estimate = Math.min(DOWNLINK_MAX_BPS, Math.max(DOWNLINK_MIN_BPS, this.estimate));
    return this.estimate;
  }
}
