import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  PictureLossIndication,
  ProtectionProfileAeadAes128Gcm,
  ProtectionProfileAes128CmHmacSha1_80,
  RtcpPayloadSpecificFeedback,
  RtcpRrPacket,
  RtpHeader,
  SrtcpSession,
  SrtpSession,
} from 'werift';
import { installSrtpKeyObjects, useSrtpKeyObjects } from './srtp-key-objects.ts';

const PROFILES = [
  ['AEAD_AES_128_GCM', ProtectionProfileAeadAes128Gcm, 12],
  ['AES_CM_128_HMAC_SHA1_80', ProtectionProfileAes128CmHmacSha1_80, 14],
] as const;

/** Both directions' master keys, as DTLS would export them; `swap` gives the other side's view. */
function keys(saltLength: number) {
  const local = { key: randomBytes(16), salt: randomBytes(saltLength) };
  const remote = { key: randomBytes(16), salt: randomBytes(saltLength) };
  const config = (a: typeof local, b: typeof local, profile: number) => ({
    keys: {
      localMasterKey: a.key,
      localMasterSalt: a.salt,
      remoteMasterKey: b.key,
      remoteMasterSalt: b.salt,
    },
    profile,
  });
  return {
    ours: (profile: number) => config(local, remote, profile),
    theirs: (profile: number) => config(remote, local, profile),
  };
}

/** Packets across the sequence-number wraparound (the rollover counter changes), sizes 0 to 1200. */
function rtpPackets() {
  return Array.from({ length: 40 }, (_, i) => ({
    header: new RtpHeader({
      payloadType: 96,
      ssrc: 0x1234_5678,
      sequenceNumber: (65_520 + i) & 0xffff,
      timestamp: 3000 * i,
      marker: i % 3 === 0,
      extension: i % 2 === 0,
      extensions: i % 2 === 0 ? [{ id: 1, payload: Buffer.from([i]) }] : [],
    }),
    payload: randomBytes((i * 31) % 1201),
  }));
}

const rtcpPackets = () => [
  new RtcpRrPacket({ ssrc: 0x0a0b_0c0d, reports: [] }).serialize(),
  new RtcpPayloadSpecificFeedback({
    feedback: new PictureLossIndication({ senderSsrc: 0x0a0b_0c0d, mediaSsrc: 0x1234_5678 }),
  }).serialize(),
];

/** werift's own session; fails loudly if something in this process already patched werift. */
function reference<T extends SrtpSession | SrtcpSession>(session: T): T {
  expect(Buffer.isBuffer(session.localContext.cipher.srtpSessionKey)).toBe(true);
  return session;
}

describe.each(PROFILES)('SRTP with prepared key objects, %s', (_name, profile, saltLength) => {
  it('encrypts RTP byte for byte like werift, across the rollover', () => {
    const { ours } = keys(saltLength);
    const plain = reference(new SrtpSession(ours(profile)));
    const fast = new SrtpSession(ours(profile));
    useSrtpKeyObjects(fast);
    for (const { header, payload } of rtpPackets()) {
      expect(fast.encrypt(payload, header).equals(plain.encrypt(payload, header))).toBe(true);
    }
  });

  it('decrypts RTP like werift and still rejects a forged packet', () => {
    const { ours, theirs } = keys(saltLength);
    const sender = new SrtpSession(theirs(profile));
    const plain = reference(new SrtpSession(ours(profile)));
    const fast = new SrtpSession(ours(profile));
    useSrtpKeyObjects(fast);
    for (const { header, payload } of rtpPackets()) {
      const encrypted = sender.encrypt(payload, header);
      expect(fast.decrypt(encrypted).equals(plain.decrypt(encrypted))).toBe(true);
    }
    const forged = sender.encrypt(Buffer.alloc(100, 1), rtpPackets()[0]?.header ?? new RtpHeader());
    const at = forged.length - 20; // inside the encrypted payload
    forged.writeUInt8(forged.readUInt8(at) ^ 0xff, at);
    expect(() => plain.decrypt(forged)).toThrow();
    expect(() => fast.decrypt(forged)).toThrow();
  });

  it('encrypts and decrypts RTCP byte for byte like werift', () => {
    const { ours, theirs } = keys(saltLength);
    const plain = reference(new SrtcpSession(ours(profile)));
    const fast = new SrtcpSession(ours(profile));
    useSrtpKeyObjects(fast);
    const receiver = new SrtcpSession(theirs(profile));
    for (let round = 0; round < 3; round += 1) {
      for (const rtcp of rtcpPackets()) {
        const encrypted = fast.encrypt(rtcp);
        expect(encrypted.equals(plain.encrypt(rtcp))).toBe(true);
        expect(receiver.decrypt(encrypted).equals(rtcp)).toBe(true);
      }
    }
    const sender = new SrtcpSession(theirs(profile));
    const encrypted = sender.encrypt(rtcpPackets()[0] ?? Buffer.alloc(0));
    expect(fast.decrypt(encrypted).equals(plain.decrypt(encrypted))).toBe(true);
  });
});

describe('installSrtpKeyObjects', () => {
  it('makes every new session werift starts use key objects, with the same output', () => {
    const { ours } = keys(12);
    const config = ours(ProtectionProfileAeadAes128Gcm);
    const plain = reference(new SrtpSession(config));
    const plainRtcp = reference(new SrtcpSession(config));
    installSrtpKeyObjects();
    installSrtpKeyObjects(); // idempotent: one wrapper, not two
    const installed = new SrtpSession(config);
    const installedRtcp = new SrtcpSession(config);
    expect(Buffer.isBuffer(installed.localContext.cipher.srtpSessionKey)).toBe(false);
    expect(Buffer.isBuffer(installedRtcp.remoteContext.cipher.srtcpSessionKey)).toBe(false);
    for (const { header, payload } of rtpPackets()) {
      expect(installed.encrypt(payload, header).equals(plain.encrypt(payload, header))).toBe(true);
    }
    for (const rtcp of rtcpPackets()) {
      expect(installedRtcp.encrypt(rtcp).equals(plainRtcp.encrypt(rtcp))).toBe(true);
    }
  });
});
