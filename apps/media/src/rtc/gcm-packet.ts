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
/** What {@link encryptGcm} needs of a werift session: its key, its salt and its rollover counters. */
export type GcmKeys = {
  key: Buffer | KeyObject;
  salt: Buffer;
  context: NonNullable<SrtpLocal['localContext']>;
};

/** One IV buffer for the thread: `createCipheriv` copies it before returning. */
const iv = Buffer.alloc(12);

/**
 * The key and salt of a werift SRTP session that negotiated AEAD_AES_128_GCM (RFC 7714), or null for any other
 * profile or a werift without these fields.
 */
export function gcmKeys(srtp: SrtpLocal): GcmKeys | null {
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
    typeof context.updateRolloverCount !== 'function'
  ) {
    return null;
  }
  return { key: cipher.srtpSessionKey, salt, context };
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
  const { context, salt } = keys;
  const state = context.getSrtpSsrcState(fields.ssrc);
  context.updateRolloverCount(fields.sequenceNumber, state);
  // RFC 7714 section 8.1: 00 00 | SSRC | ROC | SEQ, XOR the session salt.
  iv.writeUInt16BE(0, 0);
  iv.writeUInt32BE(fields.ssrc >>> 0, 2);
  iv.writeUInt32BE(state.rolloverCounter >>> 0, 6);
  iv.writeUInt16BE(fields.sequenceNumber, 10);
  for (let offset = 0; offset < 12; offset += 4) {
    iv.writeUInt32BE((iv.readUInt32BE(offset) ^ salt.readUInt32BE(offset)) >>> 0, offset);
  }
  const cipher = createCipheriv('aes-128-gcm', keys.key, iv);
  cipher.setAAD(header);
  const encrypted = cipher.update(payload);
  cipher.final();
  return [header, encrypted, cipher.getAuthTag()];
}
