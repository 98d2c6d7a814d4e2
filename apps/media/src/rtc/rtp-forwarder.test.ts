import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
  GenericNack,
  ProtectionProfileAeadAes128Gcm,
  RtcpTransportLayerFeedback,
  RtpHeader,
  RtpPacket,
  SrtpSession,
  type RTCRtpSender,
} from 'werift';
import {
  ABS_SEND_TIME,
  gcmStudent,
  input,
  MID,
  sender,
  TRANSPORT_CC,
  type Sent,
} from '../../test/student-sender.ts';
import { descriptorOf, withDescriptor } from '../forwarding/vp8-rewriter.ts';
import { absSendTime } from './header-extensions.ts';
import { ntpTimestamp } from './ntp-time.ts';

function withoutAbsSendTime(sent: Sent[]) {
  return sent.map(({ header, payload }) => ({
    ssrc: header.ssrc,
    payloadType: header.payloadType,
    sequenceNumber: header.sequenceNumber,
    timestamp: header.timestamp,
    marker: header.marker,
    extensions: header.extensions.filter((e) => e.id !== ABS_SEND_TIME.id),
    extensionIds: header.extensions.map((e) => e.id),
    payload: payload.toString('hex'),
  }));
}

describe('RtpForwarder', () => {
  it("sends what werift's own sendRtp sends, continuing sequence and timestamps across a switch", async () => {
    const werift = sender([MID, ABS_SEND_TIME]);
    const ours = sender([MID, ABS_SEND_TIME]);
    for (const { packet, switchTo } of input()) {
      if (switchTo) {
        werift.sender.replaceRTP(packet.header, true, 1234);
        ours.sender.replaceRTP(packet.header, true, 1234);
      }
      await werift.sender.sendRtp(packet);
      ours.forwarder.forward(packet);
    }
    expect(ours.sent).toHaveLength(30);
    expect(withoutAbsSendTime(ours.sent)).toEqual(withoutAbsSendTime(werift.sent));
    const seqs = ours.sent.map((p) => p.header.sequenceNumber);
    for (let i = 1; i < seqs.length; i += 1) expect(((seqs[i] ?? 0) - (seqs[i - 1] ?? 0)) & 0xffff).toBe(1);
    for (const key of [
      'sequenceNumber',
      'timestamp',
      'packetCount',
      'octetCount',
      'headerBytesSent',
    ] as const) {
      expect(ours.sender[key], key).toEqual(werift.sender[key]);
    }
    // The NACK history holds the same packets.
    const history = (s: RTCRtpSender) =>
      (s as unknown as { rtpCache: RtpPacket[] }).rtpCache.map((p) => p && p.header.sequenceNumber);
    expect(history(ours.sender)).toEqual(history(werift.sender));
    werift.sender.stop();
    ours.sender.stop();
  });

  it('writes abs-send-time from the wall clock, never going backwards', async () => {
    const ours = sender([MID, ABS_SEND_TIME]);
    for (const { packet } of input()) {
      ours.forwarder.forward(packet);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const times = ours.sent.map((p) =>
      p.header.extensions.find((e) => e.id === ABS_SEND_TIME.id)?.payload.readUIntBE(0, 3),
    );
    const now = absSendTime(performance.timeOrigin + performance.now()).readUIntBE(0, 3);
    for (let i = 1; i < times.length; i += 1) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1] ?? 0);
    expect(Math.abs(now - (times.at(-1) ?? 0))).toBeLessThan(2 ** 18); // within a second
    ours.sender.stop();
  });

  it('leaves what it does not handle (transport-wide sequence numbers) to werift', async () => {
    const ours = sender([MID, TRANSPORT_CC]);
    const [first] = input();
    if (!first) throw new Error('no input');
    ours.forwarder.forward(first.packet);
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(ours.sent[0]?.header.extensions.map((e) => e.id)).toEqual([MID.id, TRANSPORT_CC.id]);
    ours.sender.stop();
  });
});

describe("RtpForwarder with a student's own VP8 numbers", () => {
  const shared = () =>
    new RtpPacket(
      new RtpHeader({ payloadType: 96, ssrc: 0x1001, sequenceNumber: 500, timestamp: 9000, marker: true }),
      Buffer.from([0x90, 0xc0, 0x81, 0x23, 0x07, 0xaa, 0xbb]),
    );
  // Picture id 0x0567 and TL0PICIDX 0x42 instead of the packet's 0x0123 and 0x07.
  const mine = Buffer.from([0x90, 0xc0, 0x85, 0x67, 0x42, 0xaa, 0xbb]);

  it('sends them, leaves the shared payload as it was, and a retransmission carries them too', async () => {
    const ours = sender([MID, ABS_SEND_TIME]);
    const packet = shared();
    const before = Buffer.from(packet.payload);
    ours.forwarder.forward(packet, descriptorOf(mine));
    expect(ours.sent[0]?.payload).toEqual(mine);
    expect(packet.payload).toEqual(before);
    const seq = ours.sent[0]?.header.sequenceNumber ?? -1;
    const nack = new RtcpTransportLayerFeedback({
      feedback: new GenericNack({ senderSsrc: 1, mediaSourceSsrc: ours.sender.ssrc, lost: [seq] }),
    });
    ours.sender.handleRtcpPacket(nack);
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(ours.sent).toHaveLength(2);
    expect(ours.sent[1]?.header.sequenceNumber).toBe(seq);
    expect(ours.sent[1]?.payload).toEqual(mine);
    expect(packet.payload).toEqual(before);
    ours.sender.stop();
  });

  it("sends them through werift's own path too", async () => {
    const ours = sender([MID, TRANSPORT_CC]);
    const packet = shared();
    const before = Buffer.from(packet.payload);
    ours.forwarder.forward(packet, descriptorOf(mine));
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(ours.sent[0]?.payload).toEqual(mine);
    expect(packet.payload).toEqual(before);
    ours.sender.stop();
  });
});

describe('clock conversions', () => {
  it('gives RFC 3550 NTP timestamps and abs-send-time in 6.18 fixed point', () => {
    expect(ntpTimestamp(0)).toBe(2_208_988_800n << 32n);
    expect(ntpTimestamp(1_500)).toBe(((2_208_988_800n + 1n) << 32n) | 2_147_483_648n);
    expect(absSendTime(1_500).readUIntBE(0, 3)).toBe(1.5 * 2 ** 18);
    expect(absSendTime(64_000 + 250).readUIntBE(0, 3)).toBe(0.25 * 2 ** 18); // modulo 64 s
  });
});

describe('RtpForwarder with AEAD AES-GCM', () => {
  it("sends byte for byte what werift's SRTP session makes of the same packet, renumbered or not", () => {
    const key = randomBytes(16);
    const salt = randomBytes(12);
    const ours = gcmStudent(key, salt);
    const weriftEncrypt = vi.spyOn(ours.srtp, 'encrypt');
    const reference = new SrtpSession({
      keys: { localMasterKey: key, localMasterSalt: salt, remoteMasterKey: key, remoteMasterSalt: salt },
      profile: ProtectionProfileAeadAes128Gcm,
    });
    const packets = input();
    for (const [i, { packet }] of packets.entries()) {
      const before = Buffer.from(packet.payload);
      const numbers = i % 2 === 0 ? -1 : descriptorOf(Buffer.from([0x90, 0x80, 0x80 | i, i, 0, 0, 0]));
      ours.forwarder.forward(packet, numbers);
      expect(packet.payload).toEqual(before);
      const sent = ours.datagrams[i];
      if (!sent) throw new Error(`packet ${i} not sent`);
      // What werift would encrypt: the header as sent (its sequence number across the wraparound, so the
      // rollover counter moves) and the payload with the student's numbers.
      const header = RtpHeader.deSerialize(sent);
      expect(header.extensions.map((e) => e.id)).toEqual([MID.id, ABS_SEND_TIME.id]);
      const plain = numbers < 0 ? before : withDescriptor(before, numbers);
      expect(sent).toEqual(reference.encrypt(plain, header));
      const [decrypted] = reference.remoteContext.decryptRtp(sent);
      expect(decrypted.subarray(header.payloadOffset)).toEqual(plain);
    }
    // Encrypted here, not by werift's session (its `encrypt` would concatenate a copy).
    expect(weriftEncrypt).not.toHaveBeenCalled();
  });

  it('gives the sender report the time of the last packet sent', () => {
    const ours = gcmStudent(randomBytes(16), randomBytes(12));
    const before = performance.timeOrigin + performance.now();
    const [first] = input();
    if (!first) throw new Error('no input');
    ours.forwarder.forward(first.packet);
    const after = performance.timeOrigin + performance.now();
    const ntp = (ours.sender as unknown as { ntpTimestamp: bigint }).ntpTimestamp;
    expect(ntp).toBeGreaterThanOrEqual(ntpTimestamp(before - 1));
    expect(ntp).toBeLessThanOrEqual(ntpTimestamp(after + 1));
    ours.sender.stop();
  });
});
