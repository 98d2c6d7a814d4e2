import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RtpHeader, RtpPacket } from 'werift';
import { gcmStudent, input } from '../../test/student-sender.ts';
import { descriptorOf, withDescriptor } from '../forwarding/vp8-rewriter.ts';

// The NACK history RtpForwarder keeps in werift's sender (SentPacket), read as werift reads it for a NACK.
describe('RtpForwarder with AEAD AES-GCM', () => {
  it('keeps a NACK history whose retransmissions carry the same header and numbers', async () => {
    const ours = gcmStudent(randomBytes(16), randomBytes(12));
    const [first] = input();
    if (!first) throw new Error('no input');
    const mineNumbers = descriptorOf(Buffer.from([0x90, 0x80, 0x85, 0x67, 0, 0, 0]));
    ours.forwarder.forward(first.packet, mineNumbers);
    const [sent] = ours.datagrams;
    if (!sent) throw new Error('not sent');
    const seq = sent.readUInt16BE(2);
    const history = (ours.sender as unknown as { rtpCache: (RtpPacket | undefined)[] }).rtpCache;
    const kept = history[seq % 128];
    expect(kept?.header.sequenceNumber).toBe(seq);
    const size = kept?.header.serializeSize ?? 0;
    expect(kept?.header.serialize(size)).toEqual(sent.subarray(0, size));
    expect(kept?.payload).toEqual(withDescriptor(first.packet.payload, mineNumbers));
    ours.sender.stop();
  });

  it('rewrites its history slots in place: after a wrap each one answers for its newest packet', () => {
    const ours = gcmStudent(randomBytes(16), randomBytes(12));
    const history = (ours.sender as unknown as { rtpCache: (RtpPacket | undefined)[] }).rtpCache;
    const sends = 128 + 40;
    const slots = new Set<unknown>();
    for (let i = 0; i < sends; i += 1) {
      const header = new RtpHeader({
        payloadType: 96,
        ssrc: 0x1001,
        sequenceNumber: 100 + i,
        timestamp: i * 3000,
      });
      const numbers = i % 2 === 0 ? -1 : descriptorOf(Buffer.from([0x90, 0x80, 0x80 | i, i, 0, 0, 0]));
      ours.forwarder.forward(new RtpPacket(header, Buffer.from([0x90, 0x80, 0x81, i, 7, 7])), numbers);
      const sent = ours.datagrams[i];
      if (!sent) throw new Error(`packet ${i} not sent`);
      const kept = history[sent.readUInt16BE(2) % 128];
      // Read after its send, as a NACK would, then rewritten by the slot's next packet.
      const size = kept?.header.serializeSize ?? 0;
      expect(kept?.header.serialize(size)).toEqual(sent.subarray(0, size));
      slots.add(kept);
    }
    expect(slots.size).toBe(128); // one object per slot, rewritten
    for (let back = 1; back <= 128; back += 1) {
      const i = sends - back;
      const sent = ours.datagrams[i] ?? Buffer.alloc(0);
      const kept = history[sent.readUInt16BE(2) % 128];
      expect(kept?.header.sequenceNumber).toBe(sent.readUInt16BE(2));
      const size = kept?.header.serializeSize ?? 0;
      expect(kept?.header.serialize(size)).toEqual(sent.subarray(0, size));
      const payload = Buffer.from([0x90, 0x80, 0x81, i, 7, 7]);
      const numbers = i % 2 === 0 ? -1 : descriptorOf(Buffer.from([0x90, 0x80, 0x80 | i, i, 0, 0, 0]));
      expect(kept?.payload).toEqual(numbers < 0 ? payload : withDescriptor(payload, numbers));
    }
    ours.sender.stop();
  });
});
