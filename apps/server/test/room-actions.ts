import SockJS from 'sockjs-client';
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ChatTuning } from '../src/tuning.ts';
import { listenForChat, TestChatClient } from './chat-clients.ts';
import { buildTestApp, type TestUser } from './helper.ts';
import { RoomBusClient } from './room-bus-client.ts';

/** What a case needs of a member, on the room bus or over a socket alike. */
export type RoomClient = Pick<RoomBusClient, 'watch' | 'request' | 'sendAndWait' | 'messages'>;

/** How a case lets a member in: {@link roomActionsUnderTest}'s `joined`, `overSocket` or `overSockJs`. */
export type Join = (user: TestUser, classId: number) => Promise<RoomClient>;

/** A write budget no test of an action runs out of, unless it means to. */
const ROOMY: ChatTuning = { rateLimit: { capacity: 100, refillPerSecond: 100 } };

/**
 * The one setup of the room-action tests (the chat's moderation, the classroom's questions, polls, hands and
 * reactions): an app per file, listening for STOMP, and its members. Most cases act on the room bus at the
 * handler ({@link RoomBusClient}); one case per destination family goes over a real STOMP socket.
 */
export function roomActionsUnderTest(tuning: ChatTuning = ROOMY) {
  let app: FastifyInstance | null = null;
  let url = '';
  const sockets: TestChatClient[] = [];
  const built = (): FastifyInstance => {
    if (!app) throw new Error('the app is built before each file’s tests');
    return app;
  };

  beforeAll(async () => {
    app = await buildTestApp({ chat: tuning });
    url = await listenForChat(app);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await app?.close();
  });

  return {
    app: built,
    /** A member on the room bus, subscribed to the class's chat. */
    async joined(user: TestUser, classId: number): Promise<RoomBusClient> {
      const client = new RoomBusClient(built().roomBus, user.id);
      await client.join(classId);
      return client;
    },
    /** Someone on the room bus who has subscribed to nothing yet (a stranger, say). */
    member(user: TestUser): RoomBusClient {
      return new RoomBusClient(built().roomBus, user.id);
    },
    /** A member over a real STOMP socket, subscribed to the class's chat and to its own refusals. */
    async overSocket(user: TestUser, classId: number): Promise<TestChatClient> {
      const socket = new TestChatClient(url, user.token);
      sockets.push(socket);
      await socket.connect();
      await socket.join(classId);
      return socket;
    },
    /** The same member through SockJS (`sockjs-client` held to its xhr-streaming transport). */
    async overSockJs(user: TestUser, classId: number): Promise<TestChatClient> {
      const base = url.replace(/^ws/, 'http');
      const socket = new TestChatClient(url, user.token, {
        socket: () => new SockJS(base, null, { transports: ['xhr-streaming'] }),
      });
      sockets.push(socket);
      await socket.connect();
      await socket.join(classId);
      return socket;
    },
  };
}
