/**
 * Whether an RTP payload of VP8 (RFC 7741) starts a keyframe: the first packet of partition 0 (S=1, PID=0)
 * whose VP8 payload header has the inverse key-frame flag P cleared. A layer switch may only happen at such a
 * packet; every earlier packet of the new layer refers to frames the student never received.
 */
export function isVp8KeyframeStart(payload: Uint8Array): boolean {
  const offset = vp8HeaderOffset(payload);
  if (offset === null) return false;
  const header = payload[offset];
  if (header === undefined) return false;
  if ((header & 0x01) !== 0) return false; // P = 1: interframe
  // A keyframe's frame header carries the start code 9d 01 2a after the 3-byte frame tag; check it when the
  // packet holds it, so a corrupt or truncated descriptor is not taken for a keyframe.
  if (payload.length >= offset + 6) {
    return payload[offset + 3] === 0x9d && payload[offset + 4] === 0x01 && payload[offset + 5] === 0x2a;
  }
  return true;
}

/**
 * Where the VP8 payload header starts in the first packet of partition 0 (after the payload descriptor), or null
 * when the packet does not start a frame.
 */
function vp8HeaderOffset(payload: Uint8Array): number | null {
  const first = payload[0];
  if (first === undefined) return null;
  const extended = (first & 0x80) !== 0;
  const start = (first & 0x10) !== 0;
  const partition = first & 0x07;
  if (!start || partition !== 0) return null;
  let offset = 1;
  if (extended) {
    const flags = payload[offset];
    if (flags === undefined) return null;
    offset += 1;
    if (flags & 0x80) {
      // I: picture id, 7 or 15 bits (M flag in its first byte).
      const pictureId = payload[offset];
      if (pictureId === undefined) return null;
      offset += pictureId & 0x80 ? 2 : 1;
    }
    if (flags & 0x40) offset += 1; // L: TL0PICIDX
    if (flags & 0x30) offset += 1; // T or K: TID/Y/KEYIDX share one byte
  }
  return offset;
}

/**
 * The picture size a VP8 keyframe announces in its frame header (RFC 6386 9.1: 14-bit width and height after
 * the start code), read from the keyframe's first packet; null for any other packet.
 */
export function vp8KeyframeSize(payload: Uint8Array): { width: number; height: number } | null {
  if (!isVp8KeyframeStart(payload)) return null;
  const offset = vp8HeaderOffset(payload);
  if (offset === null || payload.length < offset + 10) return null;
  const read14 = (at: number) => ((payload[at] ?? 0) | ((payload[at + 1] ?? 0) << 8)) & 0x3fff;
  const width = read14(offset + 6);
  const height = read14(offset + 8);
  return width > 0 && height > 0 ? { width, height } : null;
}
