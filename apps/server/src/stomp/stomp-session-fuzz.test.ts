// Fuzzing at the session level: random input to authenticated sessions of every version, through the real
// broker, with real timers. The parser's own fuzzing is in stomp-parser.test.ts; the same over real sockets
// against the whole server is in test/chat-fuzz.test.ts.
import { describe, expect, it } from 'vitest';
import { encodeFrame, stompFrame } from './stomp-frame.ts';
import { StompSession } from './stomp-session.ts';
import { MemoryChat, memoryChatBus, RecordingTransport } from '../../test/chat-fakes.ts';
import { Random, randomChunks, randomStompInput } from '../../test/chat-fuzz-inputs.ts';

const INPUTS = 10_000;
const SEED = Number(process.env.CHAT_FUZZ_SEED ?? 20_261_121);
const VERSIONS = ['1.0', '1.1', '1.2'] as const;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('StompSession under random input', () => {
  it(`${INPUTS} random inputs to authenticated 1.0, 1.1 and 1.2 sessions never escape a session (seed ${SEED})`, async () => {
    const escaped: unknown[] = [];
    const record = (error: unknown): void => void escaped.push(error);
    process.on('uncaughtException', record);
    process.on('unhandledRejection', record);
    const internalErrors: unknown[] = [];
    const store = new MemoryChat();
    const broker = memoryChatBus(store, { capacity: 1_000_000, refillPerSecond: 1_000_000 });
    const options = {
      log: (level: string, message: string, error?: unknown) => {
        if (level === 'error') internalErrors.push(error ?? message);
      },
    };
    const transports: RecordingTransport[] = [];
    const sessions: StompSession[] = [];
    const connect = async (user: string, version: string): Promise<StompSession> => {
      const transport = new RecordingTransport();
      const session = new StompSession(transport, broker, options);
      transports.push(transport);
      sessions.push(session);
      const headers: Record<string, string> = { Authorization: `Bearer user-${user}` };
      if (version !== '1.0') headers['accept-version'] = version;
      session.receive(encodeFrame(stompFrame('CONNECT', headers)));
      await turn();
      return session;
    };
    // A member who listens the whole time: deliveries to it go on around the fuzzing.
    const listener = await connect('bob', '1.2');
    listener.receive(encodeFrame(stompFrame('SUBSCRIBE', { id: 'l', destination: '/topic/greetings/1' })));
    await turn();

    const random = new Random(SEED);
    const reached = new Map<string, Set<string>>(VERSIONS.map((version) => [version, new Set<string>()]));
    const started = Date.now();
    try {
      let current: { session: StompSession; version: string } | null = null;
      for (let i = 0; i < INPUTS; i += 1) {
        if (!current?.session.open) {
          const version = random.pick(VERSIONS);
          // Members and a stranger: both the allowed and the refused paths.
          current = { session: await connect(random.pick(['alice', 'bob', 'carol']), version), version };
        }
        const { session } = current;
        for (const piece of randomChunks(random, randomStompInput(random, 1, current.version))) {
          expect(() => session.receive(piece)).not.toThrow();
        }
        if (i % 4 === 0) await turn();
      }
      for (let i = 0; i < 5; i += 1) await turn();
      sessions.forEach((session, index) => {
        const version = session.version;
        for (const frame of transports[index]?.frames ?? []) reached.get(version)?.add(frame.command);
      });

      expect(escaped).toEqual([]);
      expect(internalErrors).toEqual([]);
      for (const transport of transports) expect(transport.malformed).toEqual([]);
      // The run reached what it is meant to shake: receipts, deliveries and refusals in every version.
      for (const version of VERSIONS)
        expect([...(reached.get(version) ?? [])].sort()).toEqual([
          'CONNECTED',
          'ERROR',
          'MESSAGE',
          'RECEIPT',
        ]);
      expect(store.messages.length).toBeGreaterThan(100);
      expect(listener.open).toBe(true);
      expect(Date.now() - started).toBeLessThan(20_000);

      // Still serving: two fresh members chat.
      const alice = await connect('alice', '1.2');
      const bob = await connect('bob', '1.1');
      for (const session of [alice, bob])
        session.receive(encodeFrame(stompFrame('SUBSCRIBE', { id: 'x', destination: '/topic/greetings/1' })));
      await turn();
      alice.receive(
        encodeFrame(stompFrame('SEND', { destination: '/app/hello' }, '{"roomId":1,"content":"끝"}')),
      );
      for (let i = 0; i < 3; i += 1) await turn();
      const last = (session: StompSession) =>
        transports[sessions.indexOf(session)]?.frames.filter((frame) => frame.command === 'MESSAGE').at(-1);
      for (const session of [alice, bob, listener]) {
        expect(last(session)?.body && new TextDecoder().decode(last(session)?.body)).toContain(
          '"content":"끝"',
        );
      }
    } finally {
      for (const session of sessions) session.transportClosed();
      process.off('uncaughtException', record);
      process.off('unhandledRejection', record);
    }
  });
});
