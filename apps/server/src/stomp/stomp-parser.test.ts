import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  encodeFrame,
  frameText,
  stompFrame,
  UNCARRIABLE,
  usesEscaping,
  type StompFrame,
} from './stomp-frame.ts';
import { StompParser, type ParseEvent } from './stomp-parser.ts';

const utf8 = new TextEncoder();
const bytes = (text: string): Uint8Array => utf8.encode(text);

function parseAll(input: Uint8Array | string, parser = new StompParser()): ParseEvent[] {
  return parser.push(typeof input === 'string' ? bytes(input) : input);
}

function frames(events: ParseEvent[]): StompFrame[] {
  return events.flatMap((event) => (event.type === 'frame' ? [event.frame] : []));
}

function errors(events: ParseEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'error' ? [event.message] : []));
}

describe('StompParser: valid input', () => {
  const cases: Array<{
    name: string;
    input: string;
    command: string;
    headers: [string, string][];
    body: string;
  }> = [
    {
      name: 'a CONNECT without body',
      input: 'CONNECT\naccept-version:1.2\nhost:x\n\n\0',
      command: 'CONNECT',
      headers: [
        ['accept-version', '1.2'],
        ['host', 'x'],
      ],
      body: '',
    },
    {
      name: 'CRLF line endings',
      input: 'SEND\r\ndestination:/app/hello\r\n\r\nhi\0',
      command: 'SEND',
      headers: [['destination', '/app/hello']],
      body: 'hi',
    },
    {
      name: 'a body with NUL octets under content-length',
      input: 'SEND\ncontent-length:5\n\na\0b\0c\0',
      command: 'SEND',
      headers: [['content-length', '5']],
      body: 'a\0b\0c',
    },
    {
      name: 'escaped header values',
      input: 'SEND\nx\\cy:a\\nb\\\\c\\rd\\ce\n\n\0',
      command: 'SEND',
      headers: [['x:y', 'a\nb\\c\rd:e']],
      body: '',
    },
    {
      name: 'CONNECT headers are not unescaped',
      input: 'CONNECT\nlogin:a\\nb\n\n\0',
      command: 'CONNECT',
      headers: [['login', 'a\\nb']],
      body: '',
    },
    {
      name: 'a repeated header keeps the first value',
      input: 'MESSAGE\nfoo:1\nfoo:2\n\n\0',
      command: 'MESSAGE',
      headers: [['foo', '1']],
      body: '',
    },
    {
      name: 'a value with a raw colon (lenient) and an empty value',
      input: 'SEND\nauthorization:Bearer a:b\nempty:\n\n\0',
      command: 'SEND',
      headers: [
        ['authorization', 'Bearer a:b'],
        ['empty', ''],
      ],
      body: '',
    },
    {
      name: 'multi-byte UTF-8 in headers and body',
      input: 'SEND\n이름:바다\n\n안녕하세요 🌊\0',
      command: 'SEND',
      headers: [['이름', '바다']],
      body: '안녕하세요 🌊',
    },
  ];

  it.each(cases)('parses $name', ({ input, command, headers, body }) => {
    const events = parseAll(input);
    expect(errors(events)).toEqual([]);
    const [frame] = frames(events);
    expect(frame?.command).toBe(command);
    expect(frame && [...frame.headers]).toEqual(headers);
    expect(frame && frameText(frame)).toBe(body);
  });

  it('reports EOLs between frames as heart-beats', () => {
    const events = parseAll('\n\r\nSEND\n\n\0\n\nSEND\n\n\0');
    expect(events.map((event) => event.type)).toEqual([
      'heartbeat',
      'heartbeat',
      'frame',
      'heartbeat',
      'heartbeat',
      'frame',
    ]);
  });

  it('waits for the rest of a frame split inside a multi-byte character and before the NULL', () => {
    const parser = new StompParser();
    const all = bytes('SEND\nk:바\ncontent-length:3\n\n다\0');
    const pieces = [
      all.subarray(0, 9),
      all.subarray(9, 30),
      all.subarray(30, all.length - 1),
      all.subarray(all.length - 1),
    ];
    const events = pieces.flatMap((piece) => parser.push(piece));
    expect(frames(events).map((f) => [f.headers.get('k'), frameText(f)])).toEqual([['바', '다']]);
  });

  it('does not unescape headers for STOMP 1.0', () => {
    const parser = new StompParser();
    parser.version = '1.0';
    const [frame] = frames(parseAll('SEND\nk:a\\qb\n\n\0', parser));
    expect(frame?.headers.get('k')).toBe('a\\qb');
  });
});

describe('StompParser: protocol errors', () => {
  const cases: Array<{ name: string; input: string | Uint8Array; message: RegExp }> = [
    { name: 'an unknown command', input: 'HELLO\n\n\0', message: /^unknown command "HELLO"$/ },
    { name: 'a CR inside the command', input: 'SE\rND\n\n\0', message: /carriage return/ },
    { name: 'a CR inside a header value', input: 'SEND\nid:a\rb\n\n\0', message: /carriage return/ },
    { name: 'a CR before a CRLF', input: 'SEND\nid:a\r\r\n\n\0', message: /carriage return/ },
    { name: 'a header without colon', input: 'SEND\nnocolon\n\n\0', message: /malformed header/ },
    { name: 'a header with an empty name', input: 'SEND\n:x\n\n\0', message: /malformed header/ },
    { name: 'an undefined escape', input: 'SEND\nk:a\\tb\n\n\0', message: /escape/ },
    { name: 'a dangling backslash', input: 'SEND\nk:a\\\n\n\0', message: /escape/ },
    { name: 'a bad content-length', input: 'SEND\ncontent-length:-1\n\n\0', message: /content-length/ },
    { name: 'content-length not followed by NULL', input: 'SEND\ncontent-length:1\n\nab\0', message: /NULL/ },
    { name: 'a stray CR between frames', input: '\rSEND\n\n\0', message: /carriage return/ },
    {
      name: 'invalid UTF-8 in a header',
      input: new Uint8Array([0x53, 0x45, 0x4e, 0x44, 0x0a, 0x6b, 0x3a, 0xff, 0x0a, 0x0a, 0]),
      message: /UTF-8/,
    },
    { name: 'a huge content-length', input: 'SEND\ncontent-length:99999999\n\n', message: /too large/ },
    {
      name: 'a body over the limit without content-length',
      input: `SEND\n\n${'x'.repeat(70_000)}`,
      message: /too large/,
    },
    { name: 'too many headers', input: `SEND\n${'a:b\n'.repeat(40)}\n\0`, message: /too many headers/ },
    {
      name: 'a header section over the limit',
      input: `SEND\nk:${'v'.repeat(9000)}`,
      message: /headers too large/,
    },
  ];

  it.each(cases)('reports $name', ({ input, message }) => {
    const events = parseAll(input);
    expect(frames(events)).toEqual([]);
    expect(errors(events)).toHaveLength(1);
    expect(errors(events)[0]).toMatch(message);
  });

  it.each(['1.0', '1.1', '1.2'])('refuses a raw CR in a header of a %s frame', (version) => {
    const parser = new StompParser();
    parser.version = version;
    expect(errors(parseAll('SUBSCRIBE\nid:a\rb\n\n\0', parser))).toEqual([
      'carriage return inside a header line',
    ]);
  });

  it('refuses the \\r escape in 1.1, which has none, and reads it in 1.2', () => {
    const parser = new StompParser();
    parser.version = '1.1';
    expect(errors(parseAll('SEND\nk:a\\rb\n\n\0', parser))[0]).toMatch(/escape/);
    expect(frames(parseAll('SEND\nk:a\\rb\n\n\0'))[0]?.headers.get('k')).toBe('a\rb');
  });

  it('stays failed after an error', () => {
    const parser = new StompParser();
    expect(errors(parser.push(bytes('NOPE\n\n\0')))).toHaveLength(1);
    expect(parser.failed).toBe(true);
    expect(parser.push(bytes('SEND\n\n\0'))).toEqual([]);
  });

  it('gives back the memory of a large frame once it is read', () => {
    const parser = new StompParser();
    const small = parser.capacity;
    const large = encodeFrame(stompFrame('SEND', { destination: '/app/hello' }, 'x'.repeat(60_000)));
    // In pieces, the last one carrying the start of the next frame.
    const next = bytes('SEND\ndestination:/app/hello\n\nnext');
    expect(frames(parser.push(large.subarray(0, 30_000)))).toEqual([]);
    expect(parser.capacity).toBeGreaterThanOrEqual(30_000);
    const tail = new Uint8Array(large.length - 30_000 + next.length);
    tail.set(large.subarray(30_000), 0);
    tail.set(next, large.length - 30_000);
    expect(frames(parser.push(tail)).map((frame) => frame.body.length)).toEqual([60_000]);
    expect(parser.capacity).toBe(small);
    // The unread start of the next frame moved with it.
    expect(frames(parser.push(bytes('\0'))).map(frameText)).toEqual(['next']);
  });

  it('enforces custom limits', () => {
    const events = parseAll('SEND\n\n12345\0', new StompParser({ maxFrameBytes: 8 }));
    expect(errors(events)[0]).toMatch(/too large/);
  });
});

// Generators for the property tests: header text may contain anything the escaping must carry.
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
