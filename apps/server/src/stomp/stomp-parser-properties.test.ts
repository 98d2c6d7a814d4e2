import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeFrame, stompFrame, UNCARRIABLE, usesEscaping } from './stomp-frame.ts';
import { StompParser } from './stomp-parser.ts';
import { bytes, errors, frames } from '../../test/stomp-parse.ts';

// Properties of the codec over generated frames, chunkings and noise.

const headerText = fc.string({
  unit: fc.constantFrom('a', 'Z', '1', ':', '\\', '\n', '\r', ' ', '바', '🌊', '-'),
});
const frameArb = fc.record({
  command: fc.constantFrom('SEND', 'MESSAGE', 'SUBSCRIBE', 'RECEIPT', 'ERROR'),
  headers: fc.uniqueArray(
    fc.tuple(
      headerText.filter((name) => name.length > 0 && name !== 'content-length'),
      headerText,
    ),
    {
      maxLength: 8,
      selector: ([name]) => name,
    },
  ),
  body: fc.uint8Array({ maxLength: 300 }),
});

function splitAt(data: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (data.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let last = 0;
  for (const point of points) {
    pieces.push(data.subarray(last, point));
    last = point;
  }
  pieces.push(data.subarray(last));
  return pieces;
}

/** What a header's text becomes on the wire of a version, as the encoder promises (see UNCARRIABLE). */
function carried(text: string, escaped: boolean, version: string, isName: boolean): string {
  if (isName && text === '') return UNCARRIABLE;
  const uncarriable = escaped ? (version === '1.1' ? /[\r\0]/g : /\0/g) : isName ? /[\r\n:\0]/g : /[\r\n\0]/g;
  return text.replace(uncarriable, UNCARRIABLE);
}

const anyText = fc.string({
  unit: fc.constantFrom('a', 'Z', ':', '\\', '\n', '\r', '\0', ' ', '바', '🌊', 'n', 'r', 'c'),
  maxLength: 12,
});

describe('StompParser: properties', () => {
  it('the encoder never throws, and any header text comes back as its version can carry it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('CONNECT', 'CONNECTED', 'MESSAGE', 'RECEIPT', 'ERROR', 'SEND', 'SUBSCRIBE'),
        fc.constantFrom('1.0', '1.1', '1.2'),
        fc.array(fc.tuple(anyText, anyText), { maxLength: 6 }),
        fc.uint8Array({ maxLength: 40 }),
        (command, version, headers, body) => {
          const wanted = headers.filter(([name]) => name !== 'content-length');
          const wire = encodeFrame(stompFrame(command, new Map(wanted), body), version);
          const parser = new StompParser();
          parser.version = version;
          const events = parser.push(wire);
          expect(errors(events)).toEqual([]);
          const [frame] = frames(events);
          expect(frame?.command).toBe(command);
          const escaped = usesEscaping(command, version);
          const expected = new Map<string, string>();
          for (const [name, value] of new Map(wanted)) {
            const key = carried(name, escaped, version, true);
            if (!expected.has(key)) expected.set(key, carried(value, escaped, version, false));
          }
          const got = [...(frame?.headers ?? [])].filter(([name]) => name !== 'content-length');
          expect(got).toEqual([...expected]);
          expect([...(frame?.body ?? [])]).toEqual([...body]);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['CONNECT', '1.2'],
    ['CONNECTED', '1.1'],
    ['SEND', '1.0'],
    ['MESSAGE', '1.0'],
    ['SUBSCRIBE', '1.1'],
    ['MESSAGE', '1.1'],
  ])('any %s frame a %s peer can carry survives encode, random chunking and parse', (command, version) => {
    const escaped = usesEscaping(command, version);
    const name = headerText.filter(
      (text) =>
        text.length > 0 && text !== 'content-length' && carried(text, escaped, version, true) === text,
    );
    const value = headerText.filter((text) => carried(text, escaped, version, false) === text);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(name, value), { maxLength: 6, selector: ([key]) => key }),
        fc.uint8Array({ maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (headers, body, cuts) => {
          const parser = new StompParser();
          parser.version = version;
          const wire = encodeFrame(stompFrame(command, new Map(headers), body), version);
          const events = splitAt(wire, cuts).flatMap((piece) => parser.push(piece));
          expect(errors(events)).toEqual([]);
          const [frame] = frames(events);
          expect(frame?.command).toBe(command);
          expect([...(frame?.headers ?? [])].filter(([key]) => key !== 'content-length')).toEqual(headers);
          expect([...(frame?.body ?? [])]).toEqual([...body]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('any frame survives encode, random chunking and parse', () => {
    fc.assert(
      fc.property(
        fc.array(frameArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.nat(3),
        (list, cuts, eols) => {
          const wire = list.flatMap((f) => [
            ...Array.from({ length: eols }, () => bytes('\r\n')),
            encodeFrame(stompFrame(f.command, new Map(f.headers), f.body)),
          ]);
          const data = new Uint8Array(wire.reduce((n, part) => n + part.length, 0));
          let offset = 0;
          for (const part of wire) {
            data.set(part, offset);
            offset += part.length;
          }
          const parser = new StompParser();
          const events = splitAt(data, cuts).flatMap((piece) => parser.push(piece));
          expect(errors(events)).toEqual([]);
          const parsed = frames(events);
          expect(parsed).toHaveLength(list.length);
          parsed.forEach((frame, i) => {
            const want = list[i];
            expect(frame.command).toBe(want?.command);
            const headers = [...frame.headers].filter(([name]) => name !== 'content-length');
            expect(headers).toEqual(want?.headers);
            expect([...frame.body]).toEqual([...(want?.body ?? [])]);
          });
          expect(events.filter((event) => event.type === 'heartbeat')).toHaveLength(eols * list.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws on 10 000 random or mutated inputs', () => {
    const valid = encodeFrame(
      stompFrame('SEND', { destination: '/app/hello', receipt: '1' }, '{"roomId":1,"content":"x"}'),
    );
    const mutated = fc
      .array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 6 })
      .map((edits) => {
        const copy = valid.slice();
        for (const [at, value] of edits) copy[at] = value;
        return copy;
      });
    const noise = fc.uint8Array({ maxLength: 400 });
    const texty = fc
      .array(
        fc.constantFrom(
          'SEND',
          'CONNECT',
          '\n',
          '\r',
          ':',
          '\\',
          '\0',
          'content-length:',
          '3',
          'x',
          '바',
          'MESSAGE',
        ),
        { maxLength: 60 },
      )
      .map((parts) => bytes(parts.join('')));
    fc.assert(
      fc.property(fc.oneof(mutated, noise, texty), fc.array(fc.nat(), { maxLength: 10 }), (input, cuts) => {
        const parser = new StompParser({ maxFrameBytes: 256, maxHeadBytes: 128, maxHeaders: 4 });
        let errorCount = 0;
        for (const piece of splitAt(input, cuts)) {
          const events = parser.push(piece);
          errorCount += errors(events).length;
        }
        expect(errorCount).toBeLessThanOrEqual(1);
      }),
      { numRuns: 10_000 },
    );
  });
});
