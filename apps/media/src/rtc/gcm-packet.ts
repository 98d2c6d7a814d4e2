import { createCipheriv, type KeyObject } from 'node:crypto';

/** The parts of werift 0.25.2's SRTP session that its AEAD AES-GCM encryption uses (private fields). */
export type SrtpLocal = {
  localContext?: {
    cipher?: { aeadAuthTagLen?: number; srtpSessionKey?: Buffer | KeyObject; srtpSessionSalt?: Buffer };
    getSrtpSsrcState(ssrc: number): RolloverState;
    updateRolloverCount(sequenceNumber: number, state: RolloverState): void;
  };
};
type RolloverState = { rolloverCounter: number };

/** An RTP header's numbers, as the forwarding path has computed them for one student. */
export type HeaderFields = {
  marker: boolean;
  payloadType: number;
  sequenceNumber: number;
  timestamp: number;
  ssrc: number;
};

/** An extension element of the one-byte profile (RFC 8285): id 1-14, 1-16 bytes. */
export type OneByteExtension = { id: number; payload: Buffer };

const ONE_BYTE_PROFILE = 0xbede;
const TAG_LENGTH = 16;
/** What {@link encryptGcm} needs of a werift session for one SSRC: its key, its salt and its rollover state. */
export type GcmKeys = {
  key: Buffer | KeyObject;
  /** The first 12 bytes of the session salt as three big-endian words (the IV is XORed with them). */
  salt: [number, number, number];
  context: NonNullable<SrtpLocal['localContext']>;
  /** werift's own rollover state of the SSRC (the object its session keeps and would use). */
  state: RolloverState;
};

/** One IV buffer for the thread: `createCipheriv` copies it before returning. */
const iv = Buffer.alloc(12);

/**
 * The key, salt and rollover state of a werift SRTP session that negotiated AEAD_AES_128_GCM (RFC 7714), for
 * packets of `ssrc`; null for any other profile or a werift without these fields.
 */
export function gcmKeys(srtp: SrtpLocal, ssrc: number): GcmKeys | null {
  const context = srtp.localContext;
  const cipher = context?.cipher;
  const salt = cipher?.srtpSessionSalt;
  // werift keeps the 14-byte session salt of the key derivation; the IV uses its first 12 bytes.
  if (
    cipher?.aeadAuthTagLen !== TAG_LENGTH ||
    !cipher.srtpSessionKey ||
    !salt ||
    salt.length < 12 ||
    !context ||
    typeof context.updateRolloverCount !== 'function' ||
    typeof context.getSrtpSsrcState !== 'function'
  ) {
    return null;
  }
  return {
    key: cipher.srtpSessionKey,
    salt: [salt.readUInt32BE(0), salt.readUInt32BE(4), salt.readUInt32BE(8)],
    context,
    state: context.getSrtpSsrcState(ssrc),
  };
}

/**
 * The header of an RTP packet as werift serialises it (version 2, no padding, no CSRC; extensions, if any, in
 * the one-byte profile, zero-padded to 32 bits), written straight from the numbers without an `RtpHeader`.
 */
export function headerBytes(fields: HeaderFields, extensions: readonly OneByteExtension[]): Buffer {
  let elements = 0;
  for (const extension of extensions) elements += 1 + extension.payload.length;
  const words = Math.ceil(elements / 4);
  const out = Buffer.allocUnsafe(12 + (extensions.length > 0 ? 4 + words * 4 : 0));
  out[0] = extensions.length > 0 ? 0x90 : 0x80;
  out[1] = (fields.marker ? 0x80 : 0) | (fields.payloadType & 0x7f);
  out.writeUInt16BE(fields.sequenceNumber, 2);
  out.writeUInt32BE(fields.timestamp >>> 0, 4);
  out.writeUInt32BE(fields.ssrc >>> 0, 8);
  if (extensions.length === 0) return out;
  out.writeUInt16BE(ONE_BYTE_PROFILE, 12);
  out.writeUInt16BE(words, 14);
  let offset = 16;
  for (const { id, payload } of extensions) {
    out[offset] = (id << 4) | (payload.length - 1);
    payload.copy(out, offset + 1);
    offset += 1 + payload.length;
  }
  out.fill(0, offset);
  return out;
}

/**
 * One sender's header with what all its packets share written once (version, SSRC, the extension block with
 * its mid): each packet's header is a copy with its own marker, payload type, sequence number, timestamp and the
 * 3-byte value of one extension (abs-send-time), the same bytes as {@link headerBytes} writes.
 */
export class HeaderTemplate {
  private readonly bytes: Buffer;
  /** Where the 3-byte value goes, or -1 when the header has no such extension. */
  private readonly valueAt: number;

  private constructor(bytes: Buffer, valueAt: number) {
    this.bytes = bytes;
    this.valueAt = valueAt;
  }

  /**
   * The template for packets of `ssrc` with these extensions (in order), the one with id `valueId` (-1: none)
   * taking a 3-byte value per packet; null when they do not fit the one-byte form (ids 1-14, 1-16 bytes).
   */
  static of(ssrc: number, extensions: readonly OneByteExtension[], valueId: number): HeaderTemplate | null {
    let valueAt = -1;
    let offset = 16;
    for (const { id, payload } of extensions) {
      if (id < 1 || id > 14 || payload.length < 1 || payload.length > 16) return null;
      if (id === valueId) {
        if (payload.length !== 3) return null;
        valueAt = offset + 1;
      }
      offset += 1 + payload.length;
    }
    const fields = { marker: false, payloadType: 0, sequenceNumber: 0, timestamp: 0, ssrc };
    return new HeaderTemplate(headerBytes(fields, extensions), valueAt);
  }

  /** A new header for one packet (it is sent after this returns, so never reused). */
  write(fields: HeaderFields, value: number): Buffer {
    const out = Buffer.allocUnsafe(this.bytes.length);
    out.set(this.bytes);
    out[1] = (fields.marker ? 0x80 : 0) | (fields.payloadType & 0x7f);
    const { sequenceNumber, timestamp } = fields;
    out[2] = sequenceNumber >>> 8;
    out[3] = sequenceNumber & 0xff;
    out[4] = timestamp >>> 24;
    out[5] = (timestamp >>> 16) & 0xff;
    out[6] = (timestamp >>> 8) & 0xff;
    out[7] = timestamp & 0xff;
    const at = this.valueAt;
    if (at >= 0) {
      out[at] = (value >>> 16) & 0xff;
      out[at + 1] = (value >>> 8) & 0xff;
      out[at + 2] = value & 0xff;
    }
    return out;
  }
}

/**
 * Encrypts one RTP packet with AEAD AES-GCM as werift's SRTP session does (the same IV, rollover counter state
 * and AAD, so the same bytes), but returns the three parts to send as one datagram instead of a concatenated
 * copy: the clear header, the encrypted payload and the 16-byte tag. `payload` is read only while this runs.
 */
export function encryptGcm(
  keys: GcmKeys,
  header: Buffer,
  fields: HeaderFields,
  payload: Buffer,
): [Buffer, Buffer, Buffer] {
  const { context, salt, state } = keys;
  context.updateRolloverCount(fields.sequenceNumber, state);
  // RFC 7714 section 8.1: 00 00 | SSRC | ROC | SEQ, XOR the session salt.
  const ssrc = fields.ssrc >>> 0;
  const roc = state.rolloverCounter >>> 0;
  iv.writeUInt32BE(((ssrc >>> 16) ^ salt[0]) >>> 0, 0);
  iv.writeUInt32BE(((((ssrc & 0xffff) << 16) | (roc >>> 16)) ^ salt[1]) >>> 0, 4);
  iv.writeUInt32BE(((((roc & 0xffff) << 16) | fields.sequenceNumber) ^ salt[2]) >>> 0, 8);
  const cipher = createCipheriv('aes-128-gcm', keys.key, iv);
  cipher.setAAD(header);
  const encrypted = cipher.update(payload);
  cipher.final();
  return [header, encrypted, cipher.getAuthTag()];
}
