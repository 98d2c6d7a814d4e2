// The web app's RoomConnection (with the real @stomp/stompjs client) against the real server: history on
// connect, a network blip in the middle, and the catch-up that neither loses nor duplicates a message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ChatMessage } from '@sea/contract/chat';
import { CHAT_DELETE_DESTINATION } from '@sea/contract/classroom';
import { ROUTES, toPath } from '@sea/contract/paths';
import { RoomConnection } from '../../web/src/lib/realtime/room-connection.ts';
import { createChatClass, eventually, listenForChat, TestChatClient } from './chat-clients.ts';
import { buildTestApp, type TestUser } from './helper.ts';

let app: FastifyInstance;
let url: string;
let classId: number;
let teacher: TestUser;
let student: TestUser;
const sockets: WebSocket[] = [];
const RealWebSocket = globalThis.WebSocket;

beforeAll(async () => {
  app = await buildTestApp();
  url = await listenForChat(app);
  ({ classId, teacher, student } = await createChatClass(app));
  // Records the sockets the client opens, so the test can cut one as a network blip would.
  globalThis.WebSocket = class extends RealWebSocket {
    constructor(...args: ConstructorParameters<typeof RealWebSocket>) {
      super(...args);
      sockets.push(this);
    }
  };
});

afterAll(async () => {
  globalThis.WebSocket = RealWebSocket;
  await app.close();
});

async function fetchHistory(id: number, after?: number, reader: TestUser = student): Promise<ChatMessage[]> {
  const base = url.replace(/^ws/, 'http').replace(/\/ws$/, '');
  const query = after === undefined ? '' : `?after=${after}&size=500`;
  const response = await fetch(`${base}${toPath(ROUTES.chatHistory, { classId: id })}${query}`, {
    headers: { authorization: `Bearer ${reader.token}` },
  });
  if (!response.ok) throw new Error(`history answered ${response.status}`);
  return (await response.json()) as ChatMessage[];
}

describe('RoomConnection of the web app against the server', () => {
  it('loads history, survives a blip without losing or repeating a message, and sends as its user', async () => {
    const other = new TestChatClient(url, teacher.token);
    await other.connect();
    await other.join(classId);
    for (const text of ['하나', '둘', '셋']) await other.sendAndWait({ roomId: classId, content: text });

    const connection = new RoomConnection({
      classId,
      url,
      getToken: () => student.token,
      fetchHistory,
      reconnectDelayMs: 300,
      heartbeatMs: 10_000,
    });
    try {
      await eventually(() => expect(connection.state).toBe('connected'));
      await eventually(() => expect(connection.messages.map((m) => m.content)).toEqual(['하나', '둘', '셋']));
      await other.sendAndWait({ roomId: classId, content: '넷' });
      await eventually(() => expect(connection.messages).toHaveLength(4));

      sockets.at(-1)?.close();
      await eventually(() => expect(connection.state).toBe('disconnected'));
      for (const text of ['다섯', '여섯', '일곱'])
        await other.sendAndWait({ roomId: classId, content: text });

      await eventually(() => expect(connection.state).toBe('connected'), 5_000);
      await eventually(() =>
        expect(connection.messages.map((m) => m.content)).toEqual([
          '하나',
          '둘',
          '셋',
          '넷',
          '다섯',
          '여섯',
          '일곱',
        ]),
      );
      const ids = connection.messages.map((m) => m.id);
      expect(new Set(ids).size).toBe(ids.length);

      expect(connection.send('학생이 보냅니다')).toBe(true);
      await eventually(() =>
        expect(other.messages.at(-1)).toMatchObject({ content: '학생이 보냅니다', writer: student.nickname }),
      );
      await eventually(() => expect(connection.messages).toHaveLength(8));
    } finally {
      connection.close();
      await other.close();
    }
    const opened = sockets.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(sockets.length).toBe(opened);
  });

  it('drops on reconnect the messages the teacher deleted while it was offline', async () => {
    const room = await createChatClass(app);
    const teacherClient = new TestChatClient(url, room.teacher.token);
    await teacherClient.connect();
    await teacherClient.join(room.classId);
    for (const text of ['처음', '지울 것', '가운데', '마지막'])
      await teacherClient.sendAndWait({ roomId: room.classId, content: text });
    const connection = new RoomConnection({
      classId: room.classId,
      url,
      getToken: () => room.student.token,
      fetchHistory: (id, after) => fetchHistory(id, after, room.student),
      reconnectDelayMs: 300,
      heartbeatMs: 10_000,
    });
    try {
      await eventually(() => expect(connection.messages).toHaveLength(4));
      const [first, doomed] = connection.messages;
      if (!first || !doomed) throw new Error('history not read');

      sockets.at(-1)?.close();
      await eventually(() => expect(connection.state).toBe('disconnected'));
      // While the client is away: two deletions (one of them the oldest it holds) and a new message.
      for (const messageId of [first.id, doomed.id]) {
        expect(
          await teacherClient.request(CHAT_DELETE_DESTINATION, { roomId: room.classId, messageId }),
        ).toBeNull();
      }
      await teacherClient.sendAndWait({ roomId: room.classId, content: '돌아온 뒤' });

      await eventually(() => expect(connection.state).toBe('connected'), 5_000);
      await eventually(() =>
        expect(connection.messages.map((m) => m.content)).toEqual(['가운데', '마지막', '돌아온 뒤']),
      );
    } finally {
      connection.close();
      await teacherClient.close();
    }
  });
});
