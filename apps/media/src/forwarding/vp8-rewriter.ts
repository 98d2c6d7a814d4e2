const TL0_MOD = 0x100;
const KEY_INDEX_MOD = 0x20;

/**
 * Where the numbered fields of the payload last read by {@link readFields} are (RFC 7741 section 4.2; -1 when
 * absent), and the picture id's range (7 or 15 bits). One object reused for every packet: this runs per packet
 * and student.
 */
const fields = { pictureId: -1, pictureIdMod: 0x8000, tl0: -1, keyIndex: -1 };

/**
 * Keeps the numbering in one student's VP8 stream continuous across layer switches. Each simulcast layer is its
 * own VP8 stream with its own picture ids, TL0PICIDX and KEYIDX; forwarded unchanged, a switch makes them jump.
 * Chrome's receiver finds a frame's references by these numbers: after such a jump it showed the new layer's
 * keyframe and a few frames, then dropped frames for about 3 s until it asked for another keyframe (the live
 * journey's quality switch, in 2 runs of 6). So at each switch the numbering goes on from the newest one sent,
 * and every later packet of that layer is shifted by the same amount.
 */
export class Vp8Rewriter {
  private pictureIdShift = 0;
  private tl0Shift = 0;
  private keyIndexShift = 0;
  /** The newest values sent (after the shift), or -1 before any. */
  private lastPictureId = -1;
  private lastTl0 = -1;
  private lastKeyIndex = -1;

  /**
   * A new source starts with `payload` (the first packet of its keyframe): its numbers follow the last ones
   * sent, or stay as they are for the very first source.
   */
  switchTo(payload: Uint8Array): void {
    if (!readFields(payload)) return;
    if (fields.pictureId >= 0 && this.lastPictureId >= 0) {
      this.pictureIdShift = mod(this.lastPictureId + 1 - pictureIdOf(payload), fields.pictureIdMod);
    }
    if (fields.tl0 >= 0 && this.lastTl0 >= 0) {
      this.tl0Shift = mod(this.lastTl0 + 1 - (payload[fields.tl0] ?? 0), TL0_MOD);
    }
    if (fields.keyIndex >= 0 && this.lastKeyIndex >= 0) {
      this.keyIndexShift = mod(
        this.lastKeyIndex + 1 - ((payload[fields.keyIndex] ?? 0) & 0x1f),
        KEY_INDEX_MOD,
      );
    }
  }

  /**
   * The numbers `payload` is to be sent with: its bytes 2-5, where the descriptor keeps them, packed big-endian
   * into one number ({@link putDescriptor} writes them), or -1 when they are the payload's own. No copy here: the
   * payload is shared by every student of the layer.
   */
  descriptorFor(payload: Uint8Array): number {
    if (!readFields(payload)) return -1;
    let out = descriptorOf(payload);
    const own = out;
    if (fields.pictureId >= 0) {
      const range = fields.pictureIdMod;
      const pictureId = mod(pictureIdOf(payload) + this.pictureIdShift, range);
      this.lastPictureId = newest(this.lastPictureId, pictureId, range);
      if (range === 0x8000) {
        out = withByte(out, fields.pictureId, 0x80 | (pictureId >> 8));
        out = withByte(out, fields.pictureId + 1, pictureId & 0xff);
      } else {
        out = withByte(out, fields.pictureId, pictureId & 0x7f);
      }
    }
    if (fields.tl0 >= 0) {
      const tl0 = mod((payload[fields.tl0] ?? 0) + this.tl0Shift, TL0_MOD);
      this.lastTl0 = newest(this.lastTl0, tl0, TL0_MOD);
      out = withByte(out, fields.tl0, tl0);
    }
    if (fields.keyIndex >= 0) {
      const byte = payload[fields.keyIndex] ?? 0;
      const keyIndex = mod((byte & 0x1f) + this.keyIndexShift, KEY_INDEX_MOD);
      this.lastKeyIndex = newest(this.lastKeyIndex, keyIndex, KEY_INDEX_MOD);
      out = withByte(out, fields.keyIndex, (byte & 0xe0) | keyIndex);
    }
    return out === own ? -1 : out;
  }
}

/** The first byte of the descriptor that can hold a number, and how many can (picture id 2, TL0PICIDX, KEYIDX). */
const NUMBERS_AT = 2;
const NUMBERS_BYTES = 4;

/** Bytes 2-5 of a payload packed big-endian (bytes past its end read as 0). */
export function descriptorOf(payload: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < NUMBERS_BYTES; i += 1) value = value * 256 + (payload[NUMBERS_AT + i] ?? 0);
  return value;
}

/** Writes bytes 2-5 packed by {@link descriptorOf} into `target` (only those it has). */
export function putDescriptor(target: Uint8Array, descriptor: number): void {
  for (let i = NUMBERS_BYTES - 1, value = descriptor; i >= 0; i -= 1, value = Math.floor(value / 256)) {
    if (NUMBERS_AT + i < target.length) target[NUMBERS_AT + i] = value % 256;
  }
}

/** A copy of `payload` with bytes 2-5 from `descriptor`. */
export function withDescriptor(payload: Buffer, descriptor: number): Buffer {
  const copy = Buffer.from(payload);
  putDescriptor(copy, descriptor);
  return copy;
}

/** `packed` with the payload byte at `offset` (2-5) replaced by `byte`. */
function withByte(packed: number, offset: number, byte: number): number {
  const weight = 256 ** (NUMBERS_AT + NUMBERS_BYTES - 1 - offset);
  const current = Math.floor(packed / weight) % 256;
  return packed + (byte - current) * weight;
}

/** Reads where the payload's numbered fields are into {@link fields}; false when it has none or is too short. */
function readFields(payload: Uint8Array): boolean {
  const first = payload[0];
  if (first === undefined || (first & 0x80) === 0) return false; // X = 0: no extension, nothing numbered
  const flags = payload[1];
  if (flags === undefined) return false;
  let offset = 2;
  fields.pictureId = -1;
  fields.tl0 = -1;
  fields.keyIndex = -1;
  if (flags & 0x80) {
    const byte = payload[offset];
    if (byte === undefined) return false;
    fields.pictureId = offset;
    fields.pictureIdMod = byte & 0x80 ? 0x8000 : 0x80;
    offset += byte & 0x80 ? 2 : 1;
  }
  if (flags & 0x40) fields.tl0 = offset++;
  if (flags & 0x30) {
    if (flags & 0x10) fields.keyIndex = offset;
    offset += 1;
  }
  return offset <= payload.length;
}

function pictureIdOf(payload: Uint8Array): number {
  const high = payload[fields.pictureId] ?? 0;
  if (fields.pictureIdMod === 0x80) return high & 0x7f;
  return ((high & 0x7f) << 8) | (payload[fields.pictureId + 1] ?? 0);
}

function mod(value: number, modulus: number): number {
  return ((value % modulus) + modulus) % modulus;
}

/** The newer of two wrapping counters (`value` is newer when less than half the range ahead). */
function newest(last: number, value: number, modulus: number): number {
  if (last < 0) return value;
  return mod(value - last, modulus) < modulus / 2 ? value : mod(last, modulus);
}
