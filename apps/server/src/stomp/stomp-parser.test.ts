import { describe, expect, it } from 'vitest';
import { encodeFrame, frameText, stompFrame } from './stomp-frame.ts';
import { StompParser } from './stomp-parser.ts';
import { bytes, errors, frames, parseAll } from '../../test/stomp-parse.ts';

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
