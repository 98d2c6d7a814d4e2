/** A held keyframe older than this is not shown: the student would first see a picture this old. */
export const HELD_KEYFRAME_MAX_AGE_MS = 30_000;
/** A keyframe of more packets than this is not held (a 1280x720 VP8 keyframe takes some 30-60). */
const MAX_PACKETS = 300;

/** What the hold reads of a packet: its RTP header's numbers (werift's `RtpPacket` has them). */
export type HeldPacket = { header: { sequenceNumber: number; timestamp: number; marker: boolean } };

/** A held keyframe: its packets in order, and how long ago it was complete. */
export type HeldKeyframe<P extends HeldPacket> = { packets: readonly P[]; ageMs: number };

/**
 * The newest complete keyframe of one layer, its packets in order, so that a student who starts watching between
 * keyframes sees a picture at once (`Consumer`), while the fresh keyframe asked for is on its way. A keyframe
 * counts once its last packet (the RTP marker) came with every sequence number before it; one with a gap, a
 * packet out of order or another timestamp inside it is not held, and the one held before stays.
 */
export class KeyframeHold<P extends HeldPacket> {
  private building: { timestamp: number; nextSeq: number; packets: P[] } | null = null;
  private held: { packets: P[]; at: number } | null = null;

  /** Every packet of the layer, in arrival order; `keyframeStart` tells whether it begins a keyframe. */
  add(packet: P, keyframeStart: boolean, nowMs: number): void {
    const { sequenceNumber, timestamp, marker } = packet.header;
    if (keyframeStart) {
      this.building = { timestamp, nextSeq: sequenceNumber, packets: [] };
    }
    const building = this.building;
    if (!building) return;
    if (
      timestamp !== building.timestamp ||
      sequenceNumber !== building.nextSeq ||
      building.packets.length >= MAX_PACKETS
    ) {
      this.building = null;
      return;
    }
    building.packets.push(packet);
    building.nextSeq = (sequenceNumber + 1) & 0xffff;
    if (marker) {
      this.held = { packets: building.packets, at: nowMs };
      this.building = null;
    }
  }

  /**
   * Takes a keyframe held elsewhere (the main thread's, for a forwarding worker that starts receiving the
   * stream), complete `ageMs` ago; a keyframe being put together meanwhile still replaces it when complete.
   */
  adopt(packets: P[], ageMs: number, nowMs: number): void {
    if (packets.length > 0) this.held = { packets, at: nowMs - ageMs };
  }

  /** The held keyframe, or null when none is held or it is older than `maxAgeMs`. */
  latest(nowMs: number, maxAgeMs = HELD_KEYFRAME_MAX_AGE_MS): HeldKeyframe<P> | null {
    if (!this.held || nowMs - this.held.at > maxAgeMs) return null;
    return { packets: this.held.packets, ageMs: nowMs - this.held.at };
  }
}
