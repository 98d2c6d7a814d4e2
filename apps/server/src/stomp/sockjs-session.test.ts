import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventSourceData, messageFrame, readMessages } from './sockjs-frames.ts';
import { SockJsSession, type SockJsReceiver } from './sockjs-session.ts';
import type { StompTransport } from './stomp-session-options.ts';

/** A response that records its frames; `one` makes it a polling response (full after one frame). */
class Response implements SockJsReceiver {
  readonly frames: string[] = [];
  ended = false;
  held = 0;
  readonly one: boolean;
  constructor(one = false) {
    this.one = one;
  }
  write(frame: string): void {
    this.frames.push(frame);
  }
  get full(): boolean {
    return this.one && this.frames.length > 0;
  }
  bufferedBytes(): number {
    return this.held;
  }
  end(): void {
    this.ended = true;
  }
}

function session() {
  const received: string[] = [];
  const events: string[] = [];
  let transport: StompTransport | null = null;
  const made = new SockJsSession({
    heartbeatMs: 1_000,
    disconnectMs: 5_000,
    opened: (given) => {
      transport = given;
      events.push('opened');
      return {
        receive: (bytes) => received.push(new TextDecoder().decode(bytes)),
        closed: () => events.push('closed'),
      };
    },
    gone: () => events.push('gone'),
  });
  const bytes = (text: string) => new TextEncoder().encode(text);
  return { made, received, events, transport: () => transport, bytes };
}

afterEach(() => vi.useRealTimers());

describe('SockJsSession', () => {
  it('opens on its first response, queues while no response is attached, and counts what it holds', () => {
    const { made, events, bytes } = session();
    const first = new Response(true);
    made.attach(first);
    expect(first.frames).toEqual(['o']);
    expect(first.ended).toBe(true);
    expect(events).toEqual(['opened']);
    made.send(bytes('MESSAGE\n\n바다\0'));
    made.send(bytes('\n'));
    expect(made.bufferedBytes()).toBe(bytes('MESSAGE\n\n바다\0').length + 1);
    const next = new Response(true);
    made.attach(next);
    expect(next.frames).toEqual([messageFrame(['MESSAGE\n\n바다\0', '\n'])]);
    expect(made.bufferedBytes()).toBe(0);
  });

  it('keeps a streaming response open, writes each message at once, and adds its unsent bytes', () => {
    const { made, bytes } = session();
    const stream = new Response();
    made.attach(stream);
    made.send(bytes('one'));
    made.send(bytes('two'));
    expect(stream.frames).toEqual(['o', 'a["one"]', 'a["two"]']);
    expect(stream.ended).toBe(false);
    stream.held = 700;
    expect(made.bufferedBytes()).toBe(700);
  });

  it('hands posted messages on only while open', () => {
    const { made, received } = session();
    expect(made.receive(['early'])).toBe(false);
    made.attach(new Response());
    expect(made.receive(['CONNECT\n\n\0', 'x'])).toBe(true);
    expect(received).toEqual(['CONNECT\n\n\0', 'x']);
  });

  it('answers a second response with close frame 2010 and leaves the first one attached', () => {
    const { made, bytes } = session();
    const stream = new Response();
    made.attach(stream);
    const second = new Response(true);
    made.attach(second);
    expect(second.frames).toEqual(['c[2010,"Another connection still open"]']);
    expect(second.ended).toBe(true);
    made.send(bytes('still here'));
    expect(stream.frames.at(-1)).toBe('a["still here"]');
  });

  it('closes with what is pending and the close frame, also for a response that comes later', () => {
    const { made, events, transport, bytes } = session();
    made.attach(new Response(true));
    transport()?.send(bytes('ERROR\n\n\0'));
    transport()?.close();
    const late = new Response(true);
    made.attach(late);
    expect(late.frames).toEqual(['a["ERROR\\n\\n\\u0000"]', 'c[3000,"Go away!"]']);
    expect(events).toEqual(['opened']);
  });

  it('is gone, and its STOMP session told, once no response came for the disconnect delay', () => {
    vi.useFakeTimers();
    const { made, events } = session();
    const stream = new Response();
    made.attach(stream);
    vi.advanceTimersByTime(10_000);
    // Attached: heartbeats instead (every second idle in this session), and not gone.
    expect(stream.frames.filter((frame) => frame === 'h')).toHaveLength(10);
    made.detached(stream);
    vi.advanceTimersByTime(4_999);
    expect(events).toEqual(['opened']);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(['opened', 'gone', 'closed']);
  });

  it('terminates at once without a frame, dropping what it held', () => {
    const { made, events, bytes } = session();
    const stream = new Response();
    made.attach(stream);
    made.terminate();
    made.send(bytes('lost'));
    expect(stream.frames).toEqual(['o']);
    expect(stream.ended).toBe(true);
    expect(made.bufferedBytes()).toBe(0);
    expect(events).toEqual(['opened', 'gone', 'closed']);
  });
});

describe('SockJS framing', () => {
  it.each([
    ['plain', ['a', 'b'], 'a["a","b"]'],
    ['NUL and line breaks', ['X\n\0'], 'a["X\\n\\u0000"]'],
    ['separators browsers mangle', ['\u2028\u200d'], 'a["\\u2028\\u200d"]'],
    ['emoji as escaped surrogates', ['😀'], 'a["\\ud83d\\ude00"]'],
    ['Korean as is', ['바다'], 'a["바다"]'],
  ])('message frame: %s', (_name, messages, frame) => {
    expect(messageFrame(messages)).toBe(frame);
    expect(JSON.parse(frame.slice(1))).toEqual(messages);
  });

  it.each([
    ['["a","b"]', 'array only', ['a', 'b']],
    ['"a"', 'single allowed', ['a']],
    ['"a"', 'array only', null],
    ['[1]', 'array only', null],
    ['{}', 'single allowed', null],
    ['[', 'single allowed', null],
  ] as const)('reads %j (%s)', (payload, single, expected) => {
    expect(readMessages(payload, single)).toEqual(expected);
  });

  it('escapes what an event stream line cannot carry, as decodeURI reads it back', () => {
    const frame = 'a["100% \\n"]\r\n\0';
    expect(eventSourceData(frame)).toBe('a["100%25 \\n"]%0D%0A%00');
    expect(decodeURI(eventSourceData(frame))).toBe(frame);
  });
});
