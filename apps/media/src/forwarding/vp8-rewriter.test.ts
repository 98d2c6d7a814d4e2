import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { descriptorOf, putDescriptor, Vp8Rewriter, withDescriptor } from './vp8-rewriter.ts';

const BODY = [0x50, 0x42, 0x00, 0x9d, 0x01, 0x2a];

/** A payload as Chrome sends its simulcast layers: X, I with a 15-bit picture id, L (TL0PICIDX) and T (TID). */
function packet(pictureId: number, tl0: number, tid = 0): Buffer {
  return Buffer.from([0x90, 0xe0, 0x80 | (pictureId >> 8), pictureId & 0xff, tl0, tid << 6, ...BODY]);
}

/** What the student receives for `payload`: a copy with its numbers when they differ, else the payload. */
function sent(rewriter: Vp8Rewriter, payload: Buffer): Buffer {
  const descriptor = rewriter.descriptorFor(payload);
  return descriptor < 0 ? payload : withDescriptor(payload, descriptor);
}

function numbers(payload: Buffer): { pictureId: number; tl0: number } {
  return { pictureId: (((payload[2] ?? 0) & 0x7f) << 8) | (payload[3] ?? 0), tl0: payload[4] ?? 0 };
}

describe('Vp8Rewriter', () => {
  it('leaves the first source as it is', () => {
    const rewriter = new Vp8Rewriter();
    const first = packet(1234, 7);
    rewriter.switchTo(first);
    expect(rewriter.descriptorFor(first)).toBe(-1);
    expect(rewriter.descriptorFor(packet(1235, 8))).toBe(-1);
  });

  it('continues the picture id and TL0PICIDX across a switch, and shifts the new layer by the same amount', () => {
    const rewriter = new Vp8Rewriter();
    rewriter.switchTo(packet(100, 5));
    for (let i = 0; i <= 10; i += 1) sent(rewriter, packet(100 + i, 5 + Math.floor(i / 4), i % 4 ? 2 : 0));
    // The other layer's keyframe: numbers far ahead (or behind) of what the student had.
    const keyframe = packet(20_000, 200);
    rewriter.switchTo(keyframe);
    expect(numbers(sent(rewriter, keyframe))).toEqual({ pictureId: 111, tl0: 8 });
    // A later temporal-layer frame of the same base frame keeps that TL0PICIDX; the next base frame is +1.
    expect(numbers(sent(rewriter, packet(20_001, 200, 2)))).toEqual({ pictureId: 112, tl0: 8 });
    expect(numbers(sent(rewriter, packet(20_002, 201)))).toEqual({ pictureId: 113, tl0: 9 });
  });

  it('never writes into the payload: it is shared by the other students', () => {
    const rewriter = new Vp8Rewriter();
    rewriter.switchTo(packet(10, 1));
    sent(rewriter, packet(10, 1));
    const shared = packet(500, 50);
    const before = Buffer.from(shared);
    rewriter.switchTo(shared);
    const out = sent(rewriter, shared);
    expect(shared).toEqual(before);
    expect(numbers(out)).toEqual({ pictureId: 11, tl0: 2 });
    expect(out.subarray(6)).toEqual(shared.subarray(6));
  });

  it('packs bytes 2-5 and puts them back, into payloads of any length', () => {
    const payload = Buffer.from([0x90, 0xe0, 0x81, 0x23, 0x45, 0x67, 0x89]);
    const packed = descriptorOf(payload);
    expect(packed).toBe(0x81234567);
    const copy = withDescriptor(payload, 0xfedcba98);
    expect([...copy]).toEqual([0x90, 0xe0, 0xfe, 0xdc, 0xba, 0x98, 0x89]);
    putDescriptor(copy, packed);
    expect(copy).toEqual(payload);
    const short = Buffer.from([0x90, 0x80, 0x12]);
    expect(descriptorOf(short)).toBe(0x12000000);
    putDescriptor(short, 0x34000000);
    expect([...short]).toEqual([0x90, 0x80, 0x34]);
  });

  it('wraps the 15-bit picture id and the 8-bit TL0PICIDX', () => {
    const rewriter = new Vp8Rewriter();
    rewriter.switchTo(packet(0x7ffe, 0xfe));
    sent(rewriter, packet(0x7ffe, 0xfe));
    sent(rewriter, packet(0x7fff, 0xff));
    const keyframe = packet(42, 42);
    rewriter.switchTo(keyframe);
    expect(numbers(sent(rewriter, keyframe))).toEqual({ pictureId: 0, tl0: 0 });
    expect(numbers(sent(rewriter, packet(43, 43)))).toEqual({ pictureId: 1, tl0: 1 });
  });

  it('takes a late packet of an older frame as older: the next switch continues from the newest sent', () => {
    const rewriter = new Vp8Rewriter();
    rewriter.switchTo(packet(300, 30));
    sent(rewriter, packet(300, 30));
    sent(rewriter, packet(302, 31));
    sent(rewriter, packet(301, 30, 1)); // reordered
    const keyframe = packet(9, 9);
    rewriter.switchTo(keyframe);
    expect(numbers(sent(rewriter, keyframe))).toEqual({ pictureId: 303, tl0: 32 });
  });

  it('keeps a 7-bit picture id 7 bits wide', () => {
    const rewriter = new Vp8Rewriter();
    const seven = (pictureId: number) => Buffer.from([0x90, 0x80, pictureId & 0x7f, ...BODY]);
    rewriter.switchTo(seven(126));
    sent(rewriter, seven(126));
    sent(rewriter, seven(127));
    const keyframe = seven(60);
    rewriter.switchTo(keyframe);
    const out = sent(rewriter, keyframe);
    expect(out.length).toBe(keyframe.length);
    expect(out[2]).toBe(0);
    expect(sent(rewriter, seven(61))[2]).toBe(1);
  });

  it('continues KEYIDX and keeps the TID and Y bits that share its byte', () => {
    const rewriter = new Vp8Rewriter();
    const withKey = (keyIndex: number) => Buffer.from([0x90, 0x30, 0x80 | 0x20 | keyIndex, ...BODY]);
    rewriter.switchTo(withKey(3));
    sent(rewriter, withKey(3));
    const keyframe = withKey(30);
    rewriter.switchTo(keyframe);
    expect(sent(rewriter, keyframe)[2]).toBe(0x80 | 0x20 | 4);
  });

  it.each([
    ['no extension', [0x10, ...BODY]],
    ['an extension without numbers', [0x90, 0x00, ...BODY]],
    ['truncated in the picture id', [0x90, 0x80]],
    ['truncated before TL0PICIDX', [0x90, 0xc0, 0x81, 0x00]],
    ['empty', []],
  ])('leaves a payload with %s as it is', (_name, bytes) => {
    const rewriter = new Vp8Rewriter();
    rewriter.switchTo(packet(10, 1));
    sent(rewriter, packet(10, 1));
    rewriter.switchTo(packet(900, 90));
    expect(rewriter.descriptorFor(Buffer.from(bytes))).toBe(-1);
  });

  it('sends consecutive picture ids and base-layer indexes across any switches between layers', () => {
    const layer = fc.record({ pictureId: fc.nat(0x7fff), tl0: fc.nat(0xff) });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(layer, fc.integer({ min: 1, max: 40 })), { minLength: 1, maxLength: 8 }),
        (runs) => {
          const rewriter = new Vp8Rewriter();
          const received: { pictureId: number; tl0: number }[] = [];
          for (const [start, frames] of runs) {
            for (let i = 0; i < frames; i += 1) {
              // Every second frame is a temporal-layer frame on the base frame before it.
              const tl0 = (start.tl0 + Math.floor(i / 2)) & 0xff;
              const payload = packet((start.pictureId + i) & 0x7fff, tl0, i % 2);
              if (i === 0) rewriter.switchTo(payload);
              received.push(numbers(sent(rewriter, payload)));
            }
          }
          for (let i = 1; i < received.length; i += 1) {
            const [previous, current] = [received[i - 1], received[i]];
            expect(current?.pictureId).toBe(((previous?.pictureId ?? 0) + 1) & 0x7fff);
            const step = ((current?.tl0 ?? 0) - (previous?.tl0 ?? 0)) & 0xff;
            expect(step === 0 || step === 1).toBe(true);
          }
        },
      ),
    );
  });
});
