/** Bounds and start of the estimate sent to the teacher as REMB, in bit/s. */
export const REMB_MIN_BPS = 100_000;
export const REMB_MAX_BPS = 5_000_000;
export const REMB_START_BPS = 2_000_000;

/** Loss above this lowers the estimate; below {@link LOW_LOSS} it may grow. */
export const HIGH_LOSS = 0.1;
export const LOW_LOSS = 0.02;

/**
 * The bandwidth the SFU reports to the teacher's browser (REMB), computed from what really arrives. werift's
 * transport-wide feedback is wrong, so transport-cc is not negotiated and Chrome's estimate follows this.
 * Without loss the estimate grows (at least 8% per update, and to 1.5x what arrives), so Chrome may probe up
 * and send the `h` and `f` layers; with heavy loss it falls below what arrives, like GCC's loss controller.
 */
export class RembEstimator {
  private estimate = REMB_START_BPS;

  /** Updates from the last interval's received bitrate and loss fraction (0..1); returns the new estimate. */
  update(receivedBps: number, lossFraction: number): number {
    if (lossFraction > HIGH_LOSS) {
      this.estimate = Math.min(this.estimate, receivedBps) * (1 - 0.5 * lossFraction);
    } else if (lossFraction < LOW_LOSS) {
      this.estimate = Math.max(this.estimate * 1.08, receivedBps * 1.5);
    }
    this.estimate = Math.min(REMB_MAX_BPS, Math.max(REMB_MIN_BPS, this.estimate));
    return Math.round(this.estimate);
  }

  get bps(): number {
    return Math.round(this.estimate);
  }
}

/**
 * REMB's bitrate field: an 18-bit mantissa and a 6-bit exponent (bitrate = mantissa * 2^exp), the exponent as
 * small as possible so no precision is lost needlessly.
 */
export function encodeRembBitrate(bps: number): { exp: number; mantissa: number } {
  let mantissa = Math.max(0, Math.floor(bps));
  let exp = 0;
  while (mantissa >= 1 << 18) {
    mantissa = Math.floor(mantissa / 2);
    exp += 1;
  }
  return { exp, mantissa };
}
