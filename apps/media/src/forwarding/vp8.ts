/**
 * Whether an RTP payload of VP8 (RFC 7741) starts a keyframe: the first packet of partition 0 (S=1, PID=0)
 * whose VP8 payload header has the inverse key-frame flag P cleared. A layer switch may only happen at such a
 * packet; every earlier packet of the new layer refers to frames the student never received.
 */
export function isVp8KeyframeStart(payload: Uint8Array): boolean {
  const first = payload[0];
  if (first === undefined) return false;
  const extended = (first & 0x80) !== 0;
  const start = (first & 0x10) !== 0;
  const partition = first & 0x07;
  if (!start || partition !== 0) return false;
  let offset = 1;
  if (extended) {
    const flags = payload[offset];
    if (flags === undefined) return false;
    offset += 1;
    if (flags & 0x80) {
      // I: picture id, 7 or 15 bits (M flag in its first byte).
      const pictureId = payload[offset];
      if (pictureId === undefined) return false;
      offset += pictureId & 0x80 ? 2 : 1;
    }
    if (flags & 0x40) offset += 1; // L: TL0PICIDX
    if (flags & 0x30) offset += 1; // T or K: TID/Y/KEYIDX share one byte
  }
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
