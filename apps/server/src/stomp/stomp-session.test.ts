import { describe, expect, it, vi } from 'vitest';
import { frameText, stompFrame } from './stomp-frame.ts';
import { enc, sessionsUnderTest, settle } from '../../test/stomp-sessions.ts';

const { world, open, connected, subscribed } = sessionsUnderTest();

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
        message: '채팅 서버를 다시 시작해요. 잠시 후 다시 연결할게요.',
        'reconnect-within-ms': '2000',
      });
      expect(transport.state).toBe('closed');
      expect(session.open).toBe(false);
      expect(world.broker.subscriptionCount).toBe(0);
    },
  );

  it('answers ERROR for malformed bytes and ignores whatever follows', async () => {
    const { session, transport } = await connected('alice');
    session.receive(new TextEncoder().encode('SEND\nbad header\n\n\0'));
    session.receive(enc(stompFrame('SEND', { destination: '/app/hello' }, '{"roomId":1,"content":"x"}')));
    await settle();
    expect(transport.commands()).toEqual(['CONNECTED', 'ERROR']);
    expect(world.store.messages).toEqual([]);
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
    expect(world.broker.subscriptionCount).toBe(1);
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
    expect(world.broker.subscriptionCount).toBe(0);
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
