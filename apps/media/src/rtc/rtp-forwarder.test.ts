import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
  GenericNack,
  ProtectionProfileAeadAes128Gcm,
  RTCRtpSender,
  RTP_EXTENSION_URI,
  RtcpTransportLayerFeedback,
  RtpHeader,
  RtpPacket,
  SrtpSession,
} from 'werift';
import { descriptorOf, withDescriptor } from '../forwarding/vp8-rewriter.ts';
import { absSendTime, ntpTimestamp, RtpForwarder } from './rtp-forwarder.ts';

type Sent = { header: RtpHeader; payload: Buffer };

const MID = { id: 1, uri: RTP_EXTENSION_URI.sdesMid };
const ABS_SEND_TIME = { id: 3, uri: RTP_EXTENSION_URI.absSendTime };
const TRANSPORT_CC = { id: 5, uri: RTP_EXTENSION_URI.transportWideCC };

/**
 * A sender of a connected student as werift sets it up, writing what it sends (plaintext) into `sent` and the
 * datagrams its UDP socket was given (as one buffer each) into `datagrams`.
 */
function sender(headerExtensions: { id: number; uri: string }[]) {
  const sent: Sent[] = [];
  const datagrams: Buffer[] = [];
  const keep = (header: RtpHeader, payload: Buffer) =>
    sent.push({
      header: RtpHeader.deSerialize(header.serialize(header.serializeSize)),
      payload: Buffer.from(payload),
    });
  const s = new RTCRtpSender('video');
  Object.assign(s, {
    ssrc: 0x0a0b_0c0d,
    mid: '2',
    headerExtensions,
    codec: { payloadType: 97, name: 'VP8' },
    dtlsTransport: {
      state: 'connected',
      bytesSent: 0,
      packetsSent: 0,
      // werift's own path
      sendRtp: async (payload: Buffer, header: RtpHeader) => keep(header, payload),
      sendRtcp: async () => undefined,
      // the forwarding path: SRTP (here: none) and the nominated UDP pair
      srtp: {
        encrypt: (payload: Buffer, header: RtpHeader) => (
          keep(header, payload),
          Buffer.alloc(12 + payload.length)
        ),
      },
      iceTransport: {
        connection: {
          canSendApplicationData: () => true,
          nominated: {
            remoteAddr: ['127.0.0.1', 9],
            packetsSent: 0,
            bytesSent: 0,
            protocol: {
              transport: {
                type: 'udp',
                closed: false,
                socket: { send: (parts: Buffer[]) => datagrams.push(Buffer.concat(parts)) },
              },
            },
          },
        },
      },
    },
  });
  return { sender: s, forwarder: new RtpForwarder(s), sent, datagrams };
}

/** A teacher's packets as the producer hands them on: two sources (a layer switch), across the wraparound. */
function input() {
  const packets: { packet: RtpPacket; switchTo: boolean }[] = [];
  for (let i = 0; i < 30; i += 1) {
    const second = i >= 18; // the student switches to another layer at packet 18
    const seq = second ? (900 + i) & 0xffff : (65_530 + i) & 0xffff;
    const header = new RtpHeader({
      payloadType: 96,
      ssrc: second ? 0x1002 : 0x1001,
      sequenceNumber: seq,
      timestamp: ((second ? 7_000_000 : 4_294_960_000) + Math.floor(i / 3) * 3000) >>> 0,
      marker: i % 3 === 2,
    });
    packets.push({
      packet: new RtpPacket(header, Buffer.from([0x90, 0x80, i, i, 1, 2, 3])),
      switchTo: i === 18,
    });
  }
  return packets;
}

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
  /** A student's sender on a real AES-GCM SRTP session. */
  function gcmStudent(key: Buffer, salt: Buffer) {
    const { sender: s, forwarder, datagrams } = sender([MID, ABS_SEND_TIME]);
    const srtp = new SrtpSession({
      keys: { localMasterKey: key, localMasterSalt: salt, remoteMasterKey: key, remoteMasterSalt: salt },
      profile: ProtectionProfileAeadAes128Gcm,
    });
    const weriftEncrypt = vi.spyOn(srtp, 'encrypt');
    (s as unknown as { dtlsTransport: Record<string, unknown> }).dtlsTransport.srtp = srtp;
    return { sender: s, forwarder, datagrams, weriftEncrypt };
  }

  it("sends byte for byte what werift's SRTP session makes of the same packet, renumbered or not", () => {
    const key = randomBytes(16);
    const salt = randomBytes(12);
    const ours = gcmStudent(key, salt);
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
    expect(ours.weriftEncrypt).not.toHaveBeenCalled();
  });

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
