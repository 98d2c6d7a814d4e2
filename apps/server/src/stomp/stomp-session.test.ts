import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoomBroker } from '../room-bus/room-broker.ts';
import { encodeFrame, frameText, stompFrame, type StompFrame } from './stomp-frame.ts';
import { StompSession, type StompSessionOptions } from './stomp-session.ts';
import { MemoryChat, memoryChatBus, RecordingTransport } from '../../test/chat-fakes.ts';

const enc = (frame: StompFrame): Uint8Array => encodeFrame(frame);
const settle = (): Promise<void> => vi.advanceTimersByTimeAsync(0).then(() => undefined);

let store: MemoryChat;
let broker: RoomBroker;

const transports: RecordingTransport[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  store = new MemoryChat();
  broker = memoryChatBus(store);
});
afterEach(() => {
  vi.useRealTimers();
  // Whatever happened, every byte the server wrote could be read by a client of the negotiated version.
  for (const transport of transports.splice(0)) expect(transport.malformed).toEqual([]);
});

function open(options: Partial<StompSessionOptions> = {}): {
  session: StompSession;
  transport: RecordingTransport;
} {
  const transport = new RecordingTransport();
  transports.push(transport);
  const session = new StompSession(transport, broker, { heartbeatMs: 1000, ...options });
  return { session, transport };
}

async function connected(
  user: string,
  heartBeat = '0,0',
  options: Partial<StompSessionOptions> = {},
  version = '1.2',
) {
  const opened = open(options);
  const headers: Record<string, string> = { 'heart-beat': heartBeat, Authorization: `Bearer user-${user}` };
  // A 1.0 client names no version at all.
  if (version !== '1.0') headers['accept-version'] = version;
  opened.session.receive(enc(stompFrame('CONNECT', headers)));
  await settle();
  expect(opened.transport.commands()).toEqual(['CONNECTED']);
  return opened;
}

async function subscribed(user: string, options: Partial<StompSessionOptions> = {}, version = '1.2') {
  const opened = await connected(user, '0,0', options, version);
  opened.session.receive(
    encodeFrame(
      stompFrame('SUBSCRIBE', { id: 's', destination: '/topic/greetings/1', receipt: 'r' }),
      version,
    ),
  );
  await settle();
  expect(opened.transport.last()?.command).toBe('RECEIPT');
  return opened;
}

describe('StompSession', () => {
  it('negotiates the highest common version and the heart-beats', async () => {
    const { transport } = await connected('alice', '500,3000');
    expect(Object.fromEntries(transport.last()?.headers ?? [])).toMatchObject({
      version: '1.2',
      'heart-beat': '1000,1000',
    });
    // The client wants one every 3 s at most: it gets one within every 3 s, and the server is not chatty.
    await vi.advanceTimersByTimeAsync(3000);
    expect(transport.heartbeats).toBeGreaterThanOrEqual(1);
    expect(transport.heartbeats).toBeLessThanOrEqual(2);
  });

  it('accepts a STOMP 1.0 client (no accept-version, no heart-beats)', async () => {
    const { session, transport } = open();
    session.receive(enc(stompFrame('CONNECT', { Authorization: 'Bearer user-alice' })));
    await settle();
    expect(transport.last()?.headers.get('version')).toBe('1.0');
    expect(transport.last()?.headers.has('heart-beat')).toBe(false);
  });

  it.each([
    [
      'an unsupported version',
      stompFrame('CONNECT', { 'accept-version': '2.0', Authorization: 'Bearer user-alice' }),
      /version/,
    ],
    ['a frame before CONNECT', stompFrame('SEND', { destination: '/app/hello' }, '{}'), /CONNECT expected/],
    [
      'a bad heart-beat header',
      stompFrame('CONNECT', { 'accept-version': '1.2', 'heart-beat': 'x', Authorization: 'Bearer user-a' }),
      /heart-beat/,
    ],
    [
      'a wrong token',
      stompFrame('CONNECT', { 'accept-version': '1.2', Authorization: 'Bearer nobody' }),
      /token/,
    ],
  ])('answers ERROR and closes on %s', async (_name, frame, message) => {
    const { session, transport } = open();
    session.receive(enc(frame));
    await settle();
    expect(transport.commands()).toEqual(['ERROR']);
    expect(transport.last()?.headers.get('message')).toMatch(message);
    expect(transport.state).toBe('closed');
    expect(session.open).toBe(false);
  });

  it.each(['1.0', '1.2'])(
    'drains a %s session at a stop: ERROR with the Korean message and the reconnect hint, then close',
    async (version) => {
      const { session, transport } = await subscribed('alice', {}, version);
      session.drain();
      session.drain();
      expect(transport.commands()).toEqual(['CONNECTED', 'RECEIPT', 'ERROR']);
      const headers = Object.fromEntries(transport.last()?.headers ?? []);
      expect(headers).toMatchObject({
        message: '채팅 서버를 다시 시작합니다. 잠시 후 다시 연결합니다.',
        'reconnect-within-ms': '2000',
      });
      expect(transport.state).toBe('closed');
      expect(session.open).toBe(false);
      expect(broker.subscriptionCount).toBe(0);
    },
  );

  it('answers ERROR for malformed bytes and ignores whatever follows', async () => {
    const { session, transport } = await connected('alice');
    session.receive(new TextEncoder().encode('SEND\nbad header\n\n\0'));
    session.receive(enc(stompFrame('SEND', { destination: '/app/hello' }, '{"roomId":1,"content":"x"}')));
    await settle();
    expect(transport.commands()).toEqual(['CONNECTED', 'ERROR']);
    expect(store.messages).toEqual([]);
  });

  it('closes a client that never sends CONNECT', async () => {
    const { transport } = open({ connectTimeoutMs: 500 });
    await vi.advanceTimersByTimeAsync(600);
    expect(transport.commands()).toEqual(['ERROR']);
    expect(transport.state).toBe('closed');
  });

  it('cuts off a client that pipelines more frames than it may have in flight', async () => {
    const { session, transport } = await connected('alice', '0,0', { maxPendingFrames: 4 });
    const send = enc(stompFrame('SEND', { destination: '/app/hello' }, '{"roomId":1,"content":"x"}'));
    const burst = new Uint8Array(send.length * 10);
    for (let i = 0; i < 10; i += 1) burst.set(send, i * send.length);
    session.receive(burst);
    await settle();
    expect(transport.last()?.headers.get('message')).toBe('too many frames in flight');
    expect(transport.state).toBe('closed');
  });

  it('terminates a peer whose heart-beats stop', async () => {
    const { session, transport } = await connected('alice', '1000,0');
    await vi.advanceTimersByTimeAsync(1500);
    session.receive(new Uint8Array([0x0a]));
    await vi.advanceTimersByTimeAsync(1500);
    expect(transport.state).toBe('open');
    await vi.advanceTimersByTimeAsync(1500);
    expect(transport.state).toBe('terminated');
  });

  it('closes a subscriber whose socket buffer overflows, and the others still get the message', async () => {
    const fast = await subscribed('alice');
    const slow = await subscribed('bob');
    slow.transport.buffered = 2 * 1024 * 1024;
    fast.session.receive(
      enc(stompFrame('SEND', { destination: '/app/hello' }, '{"roomId":1,"content":"hi"}')),
    );
    await settle();
    expect(fast.transport.last()?.command).toBe('MESSAGE');
    expect(slow.transport.state).toBe('terminated');
    expect(broker.subscriptionCount).toBe(1);
  });

  it('closes a subscriber whose socket stays behind for too long', async () => {
    const fast = await subscribed('alice', { maxSlowMs: 2000 });
    const slow = await subscribed('bob', { maxSlowMs: 2000 });
    slow.transport.buffered = 100 * 1024; // above the low mark, below the hard limit
    fast.session.receive(
      enc(stompFrame('SEND', { destination: '/app/hello' }, '{"roomId":1,"content":"hi"}')),
    );
    await settle();
    expect(slow.transport.state).toBe('open');
    await vi.advanceTimersByTimeAsync(3500);
    expect(slow.transport.state).toBe('terminated');
    expect(fast.transport.state).toBe('open');
  });

  it('answers DISCONNECT with its receipt and closes cleanly', async () => {
    const { session, transport } = await subscribed('alice');
    session.receive(enc(stompFrame('DISCONNECT', { receipt: 'bye' })));
    await settle();
    expect(transport.last()?.headers.get('receipt-id')).toBe('bye');
    expect(transport.state).toBe('closed');
    expect(broker.subscriptionCount).toBe(0);
  });

  it('refuses a SEND on the errors destination and keeps the session', async () => {
    const { session, transport } = await subscribed('alice');
    session.receive(enc(stompFrame('SUBSCRIBE', { id: 'e', destination: '/user/queue/errors' })));
    session.receive(enc(stompFrame('SEND', { destination: '/app/hello', receipt: 'x' }, 'not json')));
    await settle();
    const refusal = transport.last();
    expect(refusal?.headers.get('subscription')).toBe('e');
    expect(JSON.parse(refusal ? frameText(refusal) : '{}')).toMatchObject({
      code: 'bad-request',
      receipt: 'x',
    });
    expect(session.open).toBe(true);
  });

  it.each([
    ['an id beyond int4', '{"roomId":2147483648,"content":"hi"}'],
    ['a negative id', '{"roomId":-1,"content":"hi"}'],
    ['a fraction', '{"roomId":1.5,"content":"hi"}'],
    ['letters', '{"roomId":"abc","content":"hi"}'],
    ['no content', '{"roomId":1}'],
  ])('refuses a SEND whose body has %s as bad-request and keeps the session', async (_name, body) => {
    const { session, transport } = await subscribed('alice');
    session.receive(enc(stompFrame('SUBSCRIBE', { id: 'e', destination: '/user/queue/errors' })));
    session.receive(enc(stompFrame('SEND', { destination: '/app/hello', receipt: 'x' }, body)));
    await settle();
    const refusal = transport.last();
    expect(JSON.parse(refusal ? frameText(refusal) : '{}')).toMatchObject({ code: 'bad-request' });
    expect(session.open).toBe(true);
  });
});

const raw = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('StompSession: input no version can carry back', () => {
  it('answers a 1.0 peer whose command holds a CR with a readable ERROR, and closes only its session', async () => {
    const other = await subscribed('bob');
    const { session, transport } = await connected('alice', '0,0', {}, '1.0');
    expect(() => session.receive(raw('SE\rND\n\n\0'))).not.toThrow();
    await settle();
    expect(transport.commands()).toEqual(['CONNECTED', 'ERROR']);
    expect(transport.last()?.headers.get('message')).toBe('carriage return inside a header line');
    expect(transport.state).toBe('closed');
    expect(other.session.open).toBe(true);
  });

  it.each(['1.0', '1.1', '1.2'])(
    'refuses a raw CR inside a %s subscription id; the class keeps getting its messages',
    async (version) => {
      const listener = await subscribed('bob');
      const { session, transport } = await connected('alice', '0,0', {}, version);
      session.receive(raw('SUBSCRIBE\nid:a\rb\ndestination:/topic/greetings/1\n\n\0'));
      await settle();
      expect(transport.commands()).toEqual(['CONNECTED', 'ERROR']);
      expect(transport.last()?.headers.get('message')).toBe('carriage return inside a header line');
      expect(broker.subscriptionCount).toBe(1);

      listener.session.receive(
        enc(stompFrame('SEND', { destination: '/app/hello' }, '{"roomId":1,"content":"still here"}')),
      );
      await settle();
      expect(listener.transport.last()?.command).toBe('MESSAGE');
      expect(listener.session.open).toBe(true);
    },
  );

  it('refuses the \\r escape from a 1.1 peer (1.1 has none; it could not be sent back)', async () => {
    const { session, transport } = await connected('alice', '0,0', {}, '1.1');
    session.receive(raw('SUBSCRIBE\nid:a\\rb\ndestination:/topic/greetings/1\n\n\0'));
    await settle();
    expect(transport.last()?.headers.get('message')).toMatch(/escape/);
    expect(transport.state).toBe('closed');
  });

  it.each(['1.0', '1.1', '1.2'])(
    'echoes every id and receipt a %s peer can send in frames that peer can read',
    async (version) => {
      const { session, transport } = await subscribed('alice', {}, version);
      // Colons, backslashes and (where escaping exists) newlines, as the version can carry them.
      const id = version === '1.0' ? 'a:b\\c' : 'a:b\\c\nd';
      const receipt = version === '1.0' ? 'r:1\\' : 'r:1\\\n';
      session.receive(
        encodeFrame(stompFrame('SUBSCRIBE', { id, destination: '/topic/greetings/1', receipt }), version),
      );
      await settle();
      expect(transport.last()?.headers.get('receipt-id')).toBe(receipt);
      session.receive(
        encodeFrame(
          stompFrame('SEND', { destination: '/app/hello' }, '{"roomId":1,"content":"hi"}'),
          version,
        ),
      );
      await settle();
      const messages = transport.frames.filter((frame) => frame.command === 'MESSAGE');
      expect(messages.map((frame) => frame.headers.get('subscription')).sort()).toEqual([id, 's'].sort());
    },
  );
});

describe('StompSession: failures stay inside the session', () => {
  it('a socket whose writes throw ends that session only; receive never throws', async () => {
    const other = await subscribed('bob');
    const logged: string[] = [];
    const { session, transport } = open({ log: (_level, text) => logged.push(text) });
    transport.broken = true;
    expect(() =>
      session.receive(
        enc(stompFrame('CONNECT', { 'accept-version': '1.2', Authorization: 'Bearer user-alice' })),
      ),
    ).not.toThrow();
    await settle();
    expect(session.open).toBe(false);
    expect(transport.state).toBe('terminated');
    expect(logged.some((text) => text.includes('failed; closing it'))).toBe(true);

    // The same on the synchronous path (a framing error answered at once).
    const second = open({ log: () => undefined });
    second.transport.broken = true;
    expect(() => second.session.receive(raw('NOPE\n\n\0'))).not.toThrow();
    expect(second.transport.state).toBe('terminated');
    expect(other.session.open).toBe(true);
  });

  it('a heart-beat tick that fails closes the session instead of escaping the timer', async () => {
    const { session, transport } = await connected('alice', '0,500');
    transport.broken = true;
    await vi.advanceTimersByTimeAsync(2000);
    expect(session.open).toBe(false);
    expect(transport.state).toBe('terminated');
  });
});

describe('StompSession: subscriptions and acknowledgement', () => {
  it.each(['client', 'client-individual'])('refuses a SUBSCRIBE with ack:%s clearly', async (ack) => {
    const { session, transport } = await connected('alice');
    session.receive(enc(stompFrame('SUBSCRIBE', { id: 's', destination: '/topic/greetings/1', ack })));
    await settle();
    expect(transport.last()?.headers.get('message')).toBe('only ack:auto subscriptions are supported');
    expect(transport.state).toBe('closed');
    expect(broker.subscriptionCount).toBe(0);
  });

  it('accepts an explicit ack:auto', async () => {
    const { session, transport } = await connected('alice');
    session.receive(
      enc(stompFrame('SUBSCRIBE', { id: 's', destination: '/topic/greetings/1', ack: 'auto', receipt: 'r' })),
    );
    await settle();
    expect(transport.last()?.headers.get('receipt-id')).toBe('r');
  });

  it.each(['ACK', 'NACK'])('refuses an %s: no message awaits one', async (command) => {
    const { session, transport } = await subscribed('alice');
    session.receive(enc(stompFrame(command, { id: '1', receipt: 'x' })));
    await settle();
    expect(transport.last()?.command).toBe('ERROR');
    expect(transport.last()?.headers.get('message')).toMatch(/acknowledgement/);
    expect(transport.last()?.headers.get('receipt-id')).toBe('x');
    expect(transport.state).toBe('closed');
  });

  it('gives every refusal its own message-id', async () => {
    const { session, transport } = await subscribed('alice');
    session.receive(enc(stompFrame('SUBSCRIBE', { id: 'e', destination: '/user/queue/errors' })));
    for (let i = 0; i < 3; i += 1)
      session.receive(enc(stompFrame('SEND', { destination: '/app/hello' }, 'not json')));
    await settle();
    const ids = transport.frames
      .filter((frame) => frame.command === 'MESSAGE')
      .map((frame) => frame.headers.get('message-id'));
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });

  it.each([
    ['a class subscription', 's', '/topic/greetings/1', 'subscription id already in use'],
    ['the errors subscription', 'e', '/topic/greetings/1', 'subscription id already in use'],
    ['another errors subscription', 'e2', '/user/queue/errors', 'already subscribed to /user/queue/errors'],
  ])('refuses a SUBSCRIBE whose id or destination repeats %s', async (_name, id, destination, message) => {
    const { session, transport } = await subscribed('alice');
    session.receive(enc(stompFrame('SUBSCRIBE', { id: 'e', destination: '/user/queue/errors' })));
    session.receive(enc(stompFrame('SUBSCRIBE', { id, destination })));
    await settle();
    expect(transport.last()?.headers.get('message')).toBe(message);
    expect(transport.state).toBe('closed');
  });

  it('refuses an errors subscription whose id a class subscription uses', async () => {
    const { session, transport } = await subscribed('alice');
    session.receive(enc(stompFrame('SUBSCRIBE', { id: 's', destination: '/user/queue/errors' })));
    await settle();
    expect(transport.last()?.headers.get('message')).toBe('subscription id already in use');
  });
});

describe('StompSession: receipts', () => {
  it("answers a SUBSCRIBE's receipt only once the subscription is in effect", async () => {
    const writer = await subscribed('bob');
    const reader = await connected('alice');
    let admit: (role: 'student') => void = () => undefined;
    store.roleOf = (classId, userId) =>
      userId === 'alice' ? new Promise((resolve) => (admit = resolve)) : Promise.resolve('student');
    reader.session.receive(
      enc(stompFrame('SUBSCRIBE', { id: 's', destination: '/topic/greetings/1', receipt: 'in-effect' })),
    );
    const send = (content: string) =>
      writer.session.receive(
        enc(stompFrame('SEND', { destination: '/app/hello' }, JSON.stringify({ roomId: 1, content }))),
      );
    send('before');
    await settle();
    // Still being checked: no receipt, and a message stored now is not delivered (a history read after the
    // receipt has it).
    expect(reader.transport.commands()).toEqual(['CONNECTED']);
    admit('student');
    await settle();
    expect(reader.transport.commands()).toEqual(['CONNECTED', 'RECEIPT']);
    send('after');
    await settle();
    expect(reader.transport.commands()).toEqual(['CONNECTED', 'RECEIPT', 'MESSAGE']);
    expect(frameText(reader.transport.last() ?? stompFrame('X'))).toContain('"content":"after"');
  });
});
