import { describe, expect, it } from 'vitest';
import { isVp8KeyframeStart, vp8KeyframeSize } from './vp8.ts';

// A keyframe's first bytes after the payload descriptor: frame tag (P=0) then the start code 9d 01 2a.
const KEY = [0x50, 0x42, 0x00, 0x9d, 0x01, 0x2a, 0x80, 0x02];
const DELTA = [0x51, 0x42, 0x00, 0x00, 0x00, 0x00];

describe('isVp8KeyframeStart', () => {
  const cases: [string, number[], boolean][] = [
    ['minimal descriptor, keyframe', [0x10, ...KEY], true],
    ['minimal descriptor, interframe', [0x10, ...DELTA], false],
    ['not the start of a partition', [0x00, ...KEY], false],
    ['start of partition 1', [0x11, ...KEY], false],
    ['7-bit picture id', [0x90, 0x80, 0x12, ...KEY], true],
    ['15-bit picture id', [0x90, 0x80, 0x81, 0x23, ...KEY], true],
    ['15-bit picture id, interframe', [0x90, 0x80, 0x81, 0x23, ...DELTA], false],
    ['picture id, TL0PICIDX and TID', [0x90, 0xe0, 0x81, 0x23, 0x05, 0x20, ...KEY], true],
    ['KEYIDX only', [0x90, 0x10, 0x07, ...KEY], true],
    ['all extensions, interframe', [0x90, 0xf0, 0x81, 0x23, 0x05, 0x20, ...DELTA], false],
    ['P=0 but no start code: corrupt', [0x10, 0x50, 0x42, 0x00, 0x11, 0x22, 0x33], false],
    ['short keyframe fragment (no room for the start code)', [0x10, 0x50, 0x42], true],
    ['empty payload', [], false],
    ['descriptor truncated after X', [0x90], false],
    ['descriptor truncated in picture id', [0x90, 0x80], false],
    ['truncated before the frame tag', [0x90, 0x80, 0x81, 0x23], false],
  ];
  it.each(cases)('%s', (_name, bytes, expected) => {
    expect(isVp8KeyframeStart(Uint8Array.from(bytes))).toBe(expected);
  });
});

describe('vp8KeyframeSize', () => {
  // 1280x720: 14-bit little-endian width and height after the start code (scale bits set, ignored).
  const SIZE = [0x00, 0x45, 0xd0, 0xc2];
  it.each<[string, number[], { width: number; height: number } | null]>([
    [
      'a keyframe with the full descriptor',
      [0x90, 0xe0, 0x81, 0x23, 0x05, 0x20, ...KEY.slice(0, 6), ...SIZE],
      { width: 1280, height: 720 },
    ],
    ['a minimal descriptor', [0x10, ...KEY.slice(0, 6), 0x40, 0x01, 0xb4, 0x00], { width: 320, height: 180 }],
    ['an interframe', [0x10, ...DELTA, ...SIZE], null],
    ['a keyframe cut before its size', [0x10, ...KEY.slice(0, 6), 0x00], null],
  ])('%s', (_name, payload, size) => {
    expect(vp8KeyframeSize(Uint8Array.from(payload))).toEqual(size);
  });
});
