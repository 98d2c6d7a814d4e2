import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Vp8Rewriter } from './vp8-rewriter.ts';

const BODY = [0x50, 0x42, 0x00, 0x9d, 0x01, 0x2a];

/** A payload as Chrome sends its simulcast layers: X, I with a 15-bit picture id, L (TL0PICIDX) and T (TID). */
function packet(pictureId: number, tl0: number, tid = 0): Buffer {
  return Buffer.from([0x90, 0xe0, 0x80 | (pictureId >> 8), pictureId & 0xff, tl0, tid << 6, ...BODY]);
}

function numbers(payload: Buffer): { pictureId: number; tl0: number } {
  return { pictureId: (((payload[2] ?? 0) & 0x7f) << 8) | (payload[3] ?? 0), tl0: payload[4] ?? 0 };
}

describe('Vp8Rewriter', () => {
  it('leaves the first source as it is and returns the same buffer', () => {
    const rewriter = new Vp8Rewriter();
    const first = packet(1234, 7);
    rewriter.switchTo(first);
    expect(rewriter.rewrite(first)).toBe(first);
    const next = packet(1235, 8);
    expect(rewriter.rewrite(next)).toBe(next);
  });

  it('continues the picture id and TL0PICIDX across a switch, and shifts the new layer by the same amount', () => {
    const rewriter = new Vp8Rewriter();
    rewriter.switchTo(packet(100, 5));
    for (let i = 0; i <= 10; i += 1) rewriter.rewrite(packet(100 + i, 5 + Math.floor(i / 4), i % 4 ? 2 : 0));
    // The other layer's keyframe: numbers far ahead (or behind) of what the student had.
    const keyframe = packet(20_000, 200);
    rewriter.switchTo(keyframe);
    expect(numbers(rewriter.rewrite(keyframe))).toEqual({ pictureId: 111, tl0: 8 });
    // A later temporal-layer frame of the same base frame keeps that TL0PICIDX; the next base frame is +1.
    expect(numbers(rewriter.rewrite(packet(20_001, 200, 2)))).toEqual({ pictureId: 112, tl0: 8 });
    expect(numbers(rewriter.rewrite(packet(20_002, 201)))).toEqual({ pictureId: 113, tl0: 9 });
  });

  it('copies the payload it changes: the original is shared by the other students', () => {
    const rewriter = new Vp8Rewriter();
    rewriter.switchTo(packet(10, 1));
    rewriter.rewrite(packet(10, 1));
    const shared = packet(500, 50);
    const before = Buffer.from(shared);
    rewriter.switchTo(shared);
    const out = rewriter.rewrite(shared);
    expect(out).not.toBe(shared);
    expect(shared).toEqual(before);
    expect(out.subarray(6)).toEqual(shared.subarray(6));
  });

  it('wraps the 15-bit picture id and the 8-bit TL0PICIDX', () => {
    const rewriter = new Vp8Rewriter();
    rewriter.switchTo(packet(0x7ffe, 0xfe));
    rewriter.rewrite(packet(0x7ffe, 0xfe));
    rewriter.rewrite(packet(0x7fff, 0xff));
    const keyframe = packet(42, 42);
    rewriter.switchTo(keyframe);
    expect(numbers(rewriter.rewrite(keyframe))).toEqual({ pictureId: 0, tl0: 0 });
    expect(numbers(rewriter.rewrite(packet(43, 43)))).toEqual({ pictureId: 1, tl0: 1 });
  });

  it('takes a late packet of an older frame as older: the next switch continues from the newest sent', () => {
    const rewriter = new Vp8Rewriter();
    rewriter.switchTo(packet(300, 30));
    rewriter.rewrite(packet(300, 30));
    rewriter.rewrite(packet(302, 31));
    rewriter.rewrite(packet(301, 30, 1)); // reordered
    const keyframe = packet(9, 9);
    rewriter.switchTo(keyframe);
    expect(numbers(rewriter.rewrite(keyframe))).toEqual({ pictureId: 303, tl0: 32 });
  });

  it('keeps a 7-bit picture id 7 bits wide', () => {
    const rewriter = new Vp8Rewriter();
    const seven = (pictureId: number) => Buffer.from([0x90, 0x80, pictureId & 0x7f, ...BODY]);
    rewriter.switchTo(seven(126));
    rewriter.rewrite(seven(126));
    rewriter.rewrite(seven(127));
    const keyframe = seven(60);
    rewriter.switchTo(keyframe);
    const out = rewriter.rewrite(keyframe);
    expect(out.length).toBe(keyframe.length);
    expect(out[2]).toBe(0);
    expect(rewriter.rewrite(seven(61))[2]).toBe(1);
  });

  it('continues KEYIDX and keeps the TID and Y bits that share its byte', () => {
    const rewriter = new Vp8Rewriter();
    const withKey = (keyIndex: number) => Buffer.from([0x90, 0x30, 0x80 | 0x20 | keyIndex, ...BODY]);
    rewriter.switchTo(withKey(3));
    rewriter.rewrite(withKey(3));
    const keyframe = withKey(30);
    rewriter.switchTo(keyframe);
    expect(rewriter.rewrite(keyframe)[2]).toBe(0x80 | 0x20 | 4);
  });

  it.each([
    ['no extension', [0x10, ...BODY]],
    ['an extension without numbers', [0x90, 0x00, ...BODY]],
    ['truncated in the picture id', [0x90, 0x80]],
    ['truncated before TL0PICIDX', [0x90, 0xc0, 0x81, 0x00]],
    ['empty', []],
  ])('passes on a payload with %s unchanged', (_name, bytes) => {
    const rewriter = new Vp8Rewriter();
    rewriter.switchTo(packet(10, 1));
    rewriter.rewrite(packet(10, 1));
    rewriter.switchTo(packet(900, 90));
    const payload = Buffer.from(bytes);
    expect(rewriter.rewrite(payload)).toBe(payload);
  });

  it('sends consecutive picture ids and base-layer indexes across any switches between layers', () => {
    const layer = fc.record({ pictureId: fc.nat(0x7fff), tl0: fc.nat(0xff) });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(layer, fc.integer({ min: 1, max: 40 })), { minLength: 1, maxLength: 8 }),
        (runs) => {
          const rewriter = new Vp8Rewriter();
          const sent: { pictureId: number; tl0: number }[] = [];
          for (const [start, frames] of runs) {
            for (let i = 0; i < frames; i += 1) {
              // Every second frame is a temporal-layer frame on the base frame before it.
              const tl0 = (start.tl0 + Math.floor(i / 2)) & 0xff;
              const payload = packet((start.pictureId + i) & 0x7fff, tl0, i % 2);
              if (i === 0) rewriter.switchTo(payload);
              sent.push(numbers(rewriter.rewrite(payload)));
            }
          }
          for (let i = 1; i < sent.length; i += 1) {
            const [previous, current] = [sent[i - 1], sent[i]];
            expect(current?.pictureId).toBe(((previous?.pictureId ?? 0) + 1) & 0x7fff);
            const step = ((current?.tl0 ?? 0) - (previous?.tl0 ?? 0)) & 0xff;
            expect(step === 0 || step === 1).toBe(true);
          }
        },
      ),
    );
  });
});
