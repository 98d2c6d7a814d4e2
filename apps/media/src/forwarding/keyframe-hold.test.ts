import { RtpHeader, RtpPacket } from 'werift';
import { describe, expect, it } from 'vitest';
import { KeyframeHold, type HeldKeyframe } from './keyframe-hold.ts';

const packet = (sequenceNumber: number, timestamp: number, marker = false) =>
  new RtpPacket(
    new RtpHeader({ payloadType: 96, ssrc: 1, sequenceNumber, timestamp, marker }),
    Buffer.alloc(4),
  );

const seqs = (held: HeldKeyframe<RtpPacket> | null) =>
  held?.packets.map((p) => p.header.sequenceNumber) ?? null;

/** Feeds a frame of `count` packets from `seq` on (the first a keyframe start when `key`). */
function frame(
  hold: KeyframeHold<RtpPacket>,
  seq: number,
  timestamp: number,
  count: number,
  key: boolean,
  now = 0,
) {
  for (let i = 0; i < count; i += 1) {
    hold.add(packet((seq + i) & 0xffff, timestamp, i === count - 1), key && i === 0, now);
  }
}

describe('KeyframeHold', () => {
  it('holds the newest keyframe once its last packet came, across the sequence wraparound', () => {
    const hold = new KeyframeHold<RtpPacket>();
    hold.add(packet(65_534, 3000), true, 0);
    hold.add(packet(65_535, 3000), false, 0);
    expect(seqs(hold.latest(0))).toBe(null); // its marker has not come yet
    hold.add(packet(0, 3000, true), false, 0);
    expect(seqs(hold.latest(0))).toEqual([65_534, 65_535, 0]);
    frame(hold, 1, 6000, 1, false); // delta frames do not replace it
    frame(hold, 2, 9000, 2, true, 100);
    expect(seqs(hold.latest(100))).toEqual([2, 3]);
  });

  it('keeps the previous keyframe when the next one has a gap, a packet out of order or another timestamp', () => {
    const hold = new KeyframeHold<RtpPacket>();
    frame(hold, 10, 3000, 3, true);
    hold.add(packet(20, 6000), true, 0);
    hold.add(packet(22, 6000, true), false, 0); // 21 lost
    hold.add(packet(30, 9000), true, 0);
    hold.add(packet(31, 9003, true), false, 0); // another frame's timestamp
    hold.add(packet(40, 12_000), true, 0);
    hold.add(packet(41, 12_000), false, 0);
    hold.add(packet(41, 12_000, true), false, 0); // a duplicate where 42 belongs
    expect(seqs(hold.latest(0))).toEqual([10, 11, 12]);
  });

  it('offers nothing older than the age limit, and says how old it is', () => {
    const hold = new KeyframeHold<RtpPacket>();
    frame(hold, 1, 3000, 2, true, 1_000);
    expect(hold.latest(3_000, 5_000)?.ageMs).toBe(2_000);
    expect(hold.latest(6_001, 5_000)).toBe(null);
  });

  it('adopts a keyframe held elsewhere with its age, until one of its own is complete', () => {
    const hold = new KeyframeHold<RtpPacket>();
    hold.adopt([packet(7, 3000), packet(8, 3000, true)], 1_500, 10_000);
    expect(seqs(hold.latest(10_000))).toEqual([7, 8]);
    expect(hold.latest(10_000)?.ageMs).toBe(1_500);
    expect(hold.latest(13_600, 5_000)).toBe(null);
    frame(hold, 9, 6000, 2, true, 10_100);
    expect(seqs(hold.latest(10_100))).toEqual([9, 10]);
  });
});
