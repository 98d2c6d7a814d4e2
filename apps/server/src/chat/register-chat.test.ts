import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { MAX_CHAT_LENGTH, type ChatMessage } from '@sea/contract/chat';
import { buildTestApp, bearer, type TestUser } from '../../test/helper.ts';
import { createChatClass, eventually, listenForChat, TestChatClient } from '../../test/chat-clients.ts';

let app: FastifyInstance;
let url: string;
let classId: number;
let teacher: TestUser;
let student: TestUser;
let stranger: TestUser;
const clients: TestChatClient[] = [];

function client(
  user: TestUser | null,
  options?: ConstructorParameters<typeof TestChatClient>[2],
): TestChatClient {
  const made = new TestChatClient(url, user?.token ?? null, options);
  clients.push(made);
  return made;
}

async function history(user: TestUser, query = ''): Promise<ChatMessage[]> {
  const response = await app.inject({ url: `/find/chat/list/${classId}${query}`, headers: bearer(user) });
  expect(response.statusCode).toBe(200);
  return response.json<ChatMessage[]>();
}

beforeAll(async () => {
  app = await buildTestApp({
    chat: {
      session: { heartbeatMs: 100 },
      rateLimit: { capacity: 5, refillPerSecond: 0.01 },
    },
  });
  url = await listenForChat(app);
  ({ classId, teacher, student, stranger } = await createChatClass(app));
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
});

describe('chat over STOMP (@stomp/stompjs as the client)', () => {
  it('delivers a stored message to every member, with identity from the token, and a receipt after storing', async () => {
    const teacherClient = client(teacher);
    const studentClient = client(student);
    await Promise.all([teacherClient.connect(), studentClient.connect()]);
    await Promise.all([teacherClient.join(classId), studentClient.join(classId)]);

    await studentClient.sendAndWait({
      roomId: classId,
      content: ' 안녕하세요 ',
      writer: 'hacker',
      createdDate: '1999',
    });
    // The receipt came: the message is already in the history.
    const stored = await history(teacher);
    expect(stored.map((m) => m.content)).toEqual(['안녕하세요']);
    const [message] = stored;
    expect(message).toMatchObject({ roomId: classId, writer: student.nickname, writer_id: student.id });
    expect(Date.parse(message?.createdDate ?? '')).toBeGreaterThan(Date.now() - 60_000);

    await eventually(() => {
      expect(teacherClient.messages).toEqual(stored);
      expect(studentClient.messages).toEqual(stored);
    });
  });

  it('refuses a CONNECT without a valid token with an ERROR frame and closes', async () => {
    for (const user of [null, { ...student, token: 'not-a-token' }]) {
      const anonymous = client(user);
      await expect(anonymous.connect()).rejects.toThrow(/token/);
      await anonymous.closed();
      expect(anonymous.errors[0]?.headers.message).toMatch(/token/);
    }
  });

  it('refuses a stranger who subscribes to a class chat, then closes', async () => {
    const strangerClient = client(stranger);
    await strangerClient.connect();
    strangerClient.client.subscribe(`/topic/greetings/${classId}`, () => undefined);
    await strangerClient.closed();
    expect(strangerClient.errors[0]?.headers.message).toBe('not a member of this class');
  });

  it('refuses a stranger who sends to a class chat and stores nothing', async () => {
    const before = await history(teacher);
    const strangerClient = client(stranger);
    await strangerClient.connect();
    strangerClient.send({ roomId: classId, content: 'spam' });
    await strangerClient.closed();
    expect(strangerClient.errors[0]?.headers.message).toBe('not a member of this class');
    expect(await history(teacher)).toEqual(before);
  });

  it('refuses a too-long or blank message to its sender without dropping the connection', async () => {
    const sender = client(teacher);
    await sender.connect();
    await sender.join(classId);
    sender.send({ roomId: classId, content: 'x'.repeat(MAX_CHAT_LENGTH + 1) });
    sender.send({ roomId: classId, content: ' \n ' });
    await eventually(() => expect(sender.refusals.map((r) => r.code)).toEqual(['too-long', 'blank']));
    // Exactly the limit is fine, counted in characters (a Korean syllable is one).
    await sender.sendAndWait({ roomId: classId, content: '바'.repeat(MAX_CHAT_LENGTH) });
    expect(sender.client.connected).toBe(true);
    const last = (await history(teacher)).at(-1);
    expect(last?.content).toHaveLength(MAX_CHAT_LENGTH);
  });

  it('refuses messages over the per-user rate limit, and the connection stays', async () => {
    // A class and student of its own, so that no other test has spent this student's tokens.
    const own = await createChatClass(app);
    const sender = client(own.student);
    await sender.connect();
    await sender.join(own.classId);
    // The bucket holds 5 in this test app and refills far slower than the test runs.
    for (let i = 0; i < 8; i += 1) sender.send({ roomId: own.classId, content: `burst ${i}` });
    await eventually(() => expect(sender.refusals.filter((r) => r.code === 'rate-limited')).toHaveLength(3));
    const response = await app.inject({
      url: `/find/chat/list/${own.classId}`,
      headers: bearer(own.student),
    });
    expect(response.json<ChatMessage[]>().map((m) => m.content)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `burst ${i}`),
    );
    expect(sender.client.connected).toBe(true);
  });

  it('sends heart-beats and closes a connection whose heart-beats stop', async () => {
    const peer = client(teacher, { heartbeatIncoming: 100, heartbeatOutgoing: 100 });
    await peer.connect();
    const socket = peer.socket;
    if (!socket) throw new Error('no socket');
    let received = 0;
    socket.addEventListener('message', (event) => {
      if (event.data === '\n') received += 1;
    });
    await eventually(() => expect(received).toBeGreaterThanOrEqual(2));
    expect(peer.client.connected).toBe(true);

    // The client goes silent (as a dead peer would): the server must notice and close within two intervals.
    const send = socket.send.bind(socket);
    socket.send = (data) => {
      if (data !== '\n') send(data);
    };
    const closedAt = Date.now();
    const event = await peer.closed();
    // Twice the 100 ms interval is the rule; the margin is for a busy machine. A server that did not watch
    // heart-beats would never close it.
    expect(Date.now() - closedAt).toBeLessThan(5_000);
    // 1006: the server dropped the socket (a client-side close would be a clean 1000).
    expect(event.code).toBe(1006);
  });
});

describe('dead sockets', () => {
  it('drops a socket that answers no WebSocket ping, even without STOMP heart-beats', async () => {
    // An app of its own: a ping interval this short would also cut healthy clients on a busy machine.
    const pinging = await buildTestApp({ chat: { pingIntervalMs: 150 } });
    try {
      const { port } = new URL(await listenForChat(pinging));
      const socket = net.connect(Number(port), '127.0.0.1');
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.write(
        'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      const started = Date.now();
      await closed;
      expect(answer).toMatch(/^HTTP\/1.1 101/);
      // Well before the 10 s CONNECT timeout: the unanswered ping did it.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await pinging.close();
    }
  });
});

describe('malformed input over real sockets', () => {
  it('answers 300 random and mutated inputs without crashing, and keeps serving', async () => {
    const valid = `SEND\ndestination:/app/hello\ncontent-length:30\n\n{"roomId":${classId},"content":"x"}\0`;
    const inputs = Array.from({ length: 300 }, (_, i) => {
      if (i % 3 === 0) return crypto.getRandomValues(new Uint8Array(1 + (i % 200)));
      const bytes = new TextEncoder().encode(i % 2 ? `CONNECT\naccept-version:1.2\n\n\0${valid}` : valid);
      for (let k = 0; k < 1 + (i % 5); k += 1) bytes[(i * 31 + k * 17) % bytes.length] = (i * 7 + k) % 256;
      return bytes;
    });
    for (let start = 0; start < inputs.length; start += 30) {
      await Promise.all(
        inputs.slice(start, start + 30).map(
          (input) =>
            new Promise<void>((resolve) => {
              const socket = new WebSocket(url);
              const done = (): void => {
                clearTimeout(timer);
                socket.close();
                resolve();
              };
              const timer = setTimeout(done, 300);
              socket.onopen = () => socket.send(input);
              socket.onclose = done;
              socket.onerror = done;
            }),
        ),
      );
    }
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    const after = client(teacher);
    await after.connect();
    await after.join(classId);
    expect(after.client.connected).toBe(true);
  });
});

describe('GET /find/chat/list/{classId}', () => {
  it('pages with before, after and size, oldest first', async () => {
    const own = await createChatClass(app);
    const writers = [client(own.teacher), client(own.student)];
    for (const writer of writers) {
      await writer.connect();
      for (let i = 0; i < 3; i += 1) await writer.sendAndWait({ roomId: own.classId, content: `page ${i}` });
    }
    const page = async (query: string): Promise<ChatMessage[]> => {
      const response = await app.inject({
        url: `/find/chat/list/${own.classId}${query}`,
        headers: bearer(own.student),
      });
      expect(response.statusCode).toBe(200);
      return response.json<ChatMessage[]>();
    };
    const all = await page('?size=500');
    expect(all).toHaveLength(6);
    const ids = all.map((m) => m.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect((await page('?size=2')).map((m) => m.id)).toEqual(ids.slice(-2));
    expect((await page(`?before=${ids.at(-2)}&size=2`)).map((m) => m.id)).toEqual(ids.slice(-4, -2));
    expect((await page(`?after=${ids[1]}&size=2`)).map((m) => m.id)).toEqual(ids.slice(2, 4));
    expect(await page(`?after=${ids.at(-1)}`)).toEqual([]);
  });

  it('answers 401, 418, 404 and 400 as the original API spec says', async () => {
    expect((await app.inject({ url: `/find/chat/list/${classId}` })).statusCode).toBe(401);
    const role = await app.inject({ url: `/find/chat/list/${classId}`, headers: bearer(stranger) });
    expect(role.statusCode).toBe(418);
    expect(role.json()).toMatchObject({ error: 'Role Error', data: 'error' });
    expect((await app.inject({ url: '/find/chat/list/999999', headers: bearer(teacher) })).statusCode).toBe(
      404,
    );
    for (const query of ['abc', `${classId}?size=501`, `${classId}?size=0`, `${classId}?before=x`]) {
      expect(
        (await app.inject({ url: `/find/chat/list/${query}`, headers: bearer(teacher) })).statusCode,
      ).toBe(400);
    }
  });
});
