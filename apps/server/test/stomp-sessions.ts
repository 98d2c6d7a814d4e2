import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { RoomBroker } from '../src/room-bus/room-broker.ts';
import { encodeFrame, stompFrame, type StompFrame } from '../src/stomp/stomp-frame.ts';
import { StompSession } from '../src/stomp/stomp-session.ts';
import type { StompSessionOptions } from '../src/stomp/stomp-session-options.ts';
import { MemoryChat, memoryChatBus, RecordingTransport } from './chat-fakes.ts';

// The setup of the STOMP session tests: sessions over recording transports, on a room bus in memory with the
// chat on it, under fake timers.

export const enc = (frame: StompFrame): Uint8Array => encodeFrame(frame);
export const settle = (): Promise<void> => vi.advanceTimersByTimeAsync(0).then(() => undefined);

/**
 * Registers the fake timers and, after each test, the check that every byte written could be read by a client
 * of the negotiated version; answers the test's bus and store (made afresh for each test) and ways to open
 * sessions on them.
 */
export function sessionsUnderTest() {
  const transports: RecordingTransport[] = [];
  const world = { store: new MemoryChat(), broker: memoryChatBus(new MemoryChat()) as RoomBroker };

  beforeEach(() => {
    vi.useFakeTimers();
    world.store = new MemoryChat();
    world.broker = memoryChatBus(world.store);
  });
  afterEach(() => {
    vi.useRealTimers();
    for (const transport of transports.splice(0)) expect(transport.malformed).toEqual([]);
  });

  function open(options: Partial<StompSessionOptions> = {}): {
    session: StompSession;
    transport: RecordingTransport;
  } {
    const transport = new RecordingTransport();
    transports.push(transport);
    const session = new StompSession(transport, world.broker, { heartbeatMs: 1000, ...options });
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

  return { world, open, connected, subscribed };
}
