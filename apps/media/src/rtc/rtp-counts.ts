/** What the RTP paths of one thread counted since it started (the metrics read it; workers send theirs). */
export type RtpCounts = {
  /** RTP packets received from teachers, and their payload bytes. */
  received: number;
  receivedBytes: number;
  /** RTP packets forwarded to students, and their payload bytes (retransmissions not included). */
  forwarded: number;
  forwardedBytes: number;
  /** NACK feedback packets sent to teachers, and the packets they asked for again. */
  nacksSent: number;
  nackedPackets: number;
  /** Keyframe requests (PLIs) sent to teachers. */
  keyframeRequests: number;
  /** Teachers' video packets expected and lost, as the loss estimate of each REMB interval counted them. */
  expected: number;
  lost: number;
};

/** A fresh set of counts, every one 0. */
export function emptyRtpCounts(): RtpCounts {
  return {
    received: 0,
    receivedBytes: 0,
    forwarded: 0,
    forwardedBytes: 0,
    nacksSent: 0,
    nackedPackets: 0,
    keyframeRequests: 0,
    expected: 0,
    lost: 0,
  };
}

/**
 * This thread's counts: plain numbers bumped where the packets pass (a counter object per packet would cost more
 * than the forwarding itself), one set per thread since module state is per thread.
 */
export const rtpCounts: RtpCounts = emptyRtpCounts();

/** The sum of several threads' counts. */
export function sumRtpCounts(all: RtpCounts[]): RtpCounts {
  const sum = emptyRtpCounts();
  for (const counts of all) {
    for (const key of Object.keys(sum) as (keyof RtpCounts)[]) sum[key] += counts[key];
  }
  return sum;
}
