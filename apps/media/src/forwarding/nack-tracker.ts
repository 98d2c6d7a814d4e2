/** Tuning of {@link NackTracker}. */
export type NackOptions = {
  /** Wait between two NACKs of the same packet (about one round trip). */
  retryIntervalMs: number;
  /** A packet is asked for at most this many times. */
  maxRetries: number;
  /** A packet missing for longer than this is given up (the player has moved on). */
  maxAgeMs: number;
  /** At most this many packets are tracked; the oldest are given up first. */
  maxMissing: number;
  /** A forward jump larger than this is a stream restart, not loss. */
  maxGap: number;
};

export const DEFAULT_NACK_OPTIONS: NackOptions = {
  retryIntervalMs: 40,
  maxRetries: 10,
  maxAgeMs: 1_000,
  maxMissing: 500,
  maxGap: 1_000,
};

type Missing = { since: number; lastAskedAt: number | null; asked: number };

/**
 * Missing-packet tracking for ONE incoming RTP stream (one SSRC). werift's receiver mixes the three simulcast
 * SSRCs in one tracker and so asks for the wrong packets; the SFU keeps one of these per SSRC instead.
 * Sequence numbers are extended past the 16-bit wraparound so gaps across it are measured correctly.
 */
export class NackTracker {
  private readonly options: NackOptions;
  private highest: number | null = null;
  private readonly missing = new Map<number, Missing>();
  private expectedCount = 0;
  private lostCount = 0;

  constructor(options: Partial<NackOptions> = {}) {
    this.options = { ...DEFAULT_NACK_OPTIONS, ...options };
  }

  /** Records an arrived packet (new, late or retransmitted). */
  receive(sequenceNumber: number, nowMs: number): void {
    if (this.highest === null) {
      this.highest = sequenceNumber;
      this.expectedCount += 1;
      return;
    }
    const delta = ((sequenceNumber - (this.highest & 0xffff) + 0x8000) & 0xffff) - 0x8000;
    const extended = this.highest + delta;
    if (delta > 0) {
      if (delta > this.options.maxGap) {
        // The sender restarted its sequence: nothing between is worth asking for.
        this.missing.clear();
      } else {
        for (let seq = this.highest + 1; seq < extended; seq += 1) {
          this.missing.set(seq, { since: nowMs, lastAskedAt: null, asked: 0 });
        }
        this.lostCount += delta - 1;
        this.trim();
      }
      this.expectedCount += delta;
      this.highest = extended;
    } else if (delta < 0) {
      this.missing.delete(extended);
    }
  }

  /**
   * The 16-bit sequence numbers to NACK now: each missing packet once at first, then again after the retry
   * interval, until it arrives, is asked for `maxRetries` times, or is older than `maxAgeMs`.
   */
  due(nowMs: number): number[] {
    const ask: number[] = [];
    for (const [seq, entry] of this.missing) {
      if (entry.asked >= this.options.maxRetries || nowMs - entry.since > this.options.maxAgeMs) {
        this.missing.delete(seq);
        continue;
      }
      if (entry.lastAskedAt !== null && nowMs - entry.lastAskedAt < this.options.retryIntervalMs) continue;
      entry.asked += 1;
      entry.lastAskedAt = nowMs;
      ask.push(seq & 0xffff);
    }
    return ask;
  }

  /** Packets currently awaited. */
  get missingCount(): number {
    return this.missing.size;
  }

  /**
   * Packets expected and lost (before any retransmission) since the last call: the loss the teacher's link
   * causes, used for the bandwidth estimate sent back as REMB.
   */
  takeCounts(): { expected: number; lost: number } {
    const counts = { expected: this.expectedCount, lost: this.lostCount };
    this.expectedCount = 0;
    this.lostCount = 0;
    return counts;
  }

  private trim(): void {
    // Map iteration follows insertion order, which is ascending sequence order here.
    for (const seq of this.missing.keys()) {
      if (this.missing.size <= this.options.maxMissing) break;
      this.missing.delete(seq);
    }
  }
}
