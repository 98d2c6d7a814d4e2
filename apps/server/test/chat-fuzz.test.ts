// Random and hostile input over real sockets against the whole API server: sessions of STOMP 1.0, 1.1 and 1.2
// that authenticated and then send anything. The server must answer each one within its session and go on
// serving everyone else.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { chatTopic } from '@sea/contract/chat';
import { encodeFrame, stompFrame } from '../src/stomp/stomp-frame.ts';
import {
  createChatClass,
  eventually,
  listenForChat,
  RawStompClient,
  TestChatClient,
} from './chat-clients.ts';
import { Random, randomChunks, randomStompInput } from './chat-fuzz-inputs.ts';
import { buildTestApp, type TestUser } from './helper.ts';

const INPUTS = 10_000;
const WORKERS = 16;
/** The whole run must finish well within this on a busy two-core machine. */
const TIME_BOUND_MS = 90_000;
const SEED = Number(process.env.CHAT_FUZZ_SEED ?? 4_242);
const VERSIONS = ['1.0', '1.1', '1.2'] as const;

let app: FastifyInstance;
let url: string;
let classId: number;
let teacher: TestUser;
let student: TestUser;
let stranger: TestUser;
const escaped: unknown[] = [];
const loggedErrors: unknown[] = [];
const record = (error: unknown): void => void escaped.push(error);

beforeAll(async () => {
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  app = await buildTestApp({ chat: { rateLimit: { capacity: 1_000_000, refillPerSecond: 1_000_000 } } });
  // The chat logs a failure it contained at level error: none may happen.
  vi.spyOn(app.log, 'error').mockImplementation((...args: unknown[]) => void loggedErrors.push(args));
  url = await listenForChat(app);
  ({ classId, teacher, student, stranger } = await createChatClass(app));
});

afterAll(async () => {
  await app.close();
  process.off('uncaughtException', record);
  process.off('unhandledRejection', record);
});

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

async function stillServing(): Promise<void> {
  expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
  const writer = new TestChatClient(url, teacher.token);
  const reader = new TestChatClient(url, student.token);
  try {
    await Promise.all([writer.connect(), reader.connect()]);
    await Promise.all([writer.join(classId), reader.join(classId)]);
    const content = `still here ${Math.random()}`;
    await writer.sendAndWait({ roomId: classId, content });
    await eventually(() => expect(reader.messages.map((m) => m.content)).toContain(content));
  } finally {
    await Promise.all([writer.close(), reader.close()]);
  }
}

describe('the chat server under hostile STOMP input', () => {
  it('a 1.0 peer that sends a CR inside a command gets an ERROR it can read, and the server lives on', async () => {
    const peer = await RawStompClient.connect(url, student.token, '1.0');
    if (!peer) throw new Error('not connected');
    peer.send(text('SE\rND\n\n\0'));
    await peer.closed;
    expect(peer.frames.map((frame) => frame.command)).toEqual(['CONNECTED', 'ERROR']);
    expect(peer.malformed).toEqual([]);
    await stillServing();
  });

  it('a 1.0 subscription id holding a CR is refused, and the next message of the class reaches everyone else', async () => {
    const listener = await RawStompClient.connect(url, teacher.token, '1.0');
    const peer = await RawStompClient.connect(url, student.token, '1.0');
    if (!listener || !peer) throw new Error('not connected');
    listener.send(text(`SUBSCRIBE\ndestination:${chatTopic(classId)}\nid:fine\nreceipt:r\n\n\0`));
    await listener.frame((frame) => frame.command === 'RECEIPT');
    peer.send(text(`SUBSCRIBE\ndestination:${chatTopic(classId)}\nid:a\rb\n\n\0`));
    await peer.closed;
    expect(peer.frames.at(-1)?.headers.get('message')).toBe('carriage return inside a header line');

    listener.send(
      encodeFrame(
        stompFrame(
          'SEND',
          { destination: '/app/hello' },
          JSON.stringify({ roomId: classId, content: '1.0' }),
        ),
        '1.0',
      ),
    );
    const message = await listener.frame((frame) => frame.command === 'MESSAGE');
    expect(message.headers.get('subscription')).toBe('fine');
    listener.close();
    await stillServing();
  });

  it(
    `${INPUTS} random inputs to authenticated 1.0, 1.1 and 1.2 sessions, and then it still serves (seed ${SEED})`,
    async () => {
      const started = Date.now();
      // A member listening the whole time: the fuzzing must not cost it its connection.
      const listener = new TestChatClient(url, teacher.token);
      await listener.connect();
      await listener.join(classId);

      let sent = 0;
      let sessions = 0;
      const clients: RawStompClient[] = [];
      const worker = async (random: Random): Promise<void> => {
        while (sent < INPUTS && Date.now() - started < TIME_BOUND_MS) {
          const version = random.pick(VERSIONS);
          const user = random.pick([teacher, student, stranger]);
          const client = await RawStompClient.connect(url, user.token, version);
          if (!client) throw new Error(`a ${version} CONNECT was refused`);
          sessions += 1;
          clients.push(client);
          while (client.open && sent < INPUTS) {
            for (const piece of randomChunks(random, randomStompInput(random, classId, version)))
              client.send(piece);
            sent += 1;
            // A peer that waits a little between frames; one that does not is cut off, which is tested elsewhere.
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
          client.close();
          await client.closed;
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(new Random(SEED + i))));
      const elapsed = Date.now() - started;

      expect(sent).toBe(INPUTS);
      expect(elapsed).toBeLessThan(TIME_BOUND_MS);
      expect(escaped).toEqual([]);
      expect(loggedErrors).toEqual([]);
      const frames = clients.flatMap((client) => client.frames);
      expect(clients.flatMap((client) => client.malformed)).toEqual([]);
      expect(frames.filter((frame) => frame.headers.get('message') === 'internal error')).toEqual([]);
      // The run reached what it is meant to shake.
      const commands = new Set(frames.map((frame) => frame.command));
      expect([...commands].sort()).toEqual(['CONNECTED', 'ERROR', 'MESSAGE', 'RECEIPT']);
      expect(sessions).toBeGreaterThan(100);
      expect(listener.client.connected).toBe(true);
      expect(listener.messages.length).toBeGreaterThan(100);
      await listener.close();
      await stillServing();
    },
    TIME_BOUND_MS + 30_000,
  );
});
