import net from 'node:net';
import SockJS from 'sockjs-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ChatMessage } from '@sea/contract/chat';
import { bearer, buildTestApp, type TestUser } from '../../test/helper.ts';
import { createChatClass, eventually, listenForChat, TestChatClient } from '../../test/chat-clients.ts';

const FRONT = 'http://front.example:8080';

let app: FastifyInstance;
let base: string;
let wsUrl: string;
let classId: number;
let teacher: TestUser;
let student: TestUser;
const clients: TestChatClient[] = [];

/** A `@stomp/stompjs` client through `sockjs-client`, held to one SockJS transport. */
function sockJsClient(user: TestUser, transport: string): TestChatClient {
  const made = new TestChatClient(wsUrl, user.token, {
    socket: () => new SockJS(`${base}/ws`, null, { transports: [transport] }),
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
  });
  clients.push(made);
  return made;
}

function plainClient(user: TestUser): TestChatClient {
  const made = new TestChatClient(wsUrl, user.token);
  clients.push(made);
  return made;
}

async function history(user: TestUser): Promise<ChatMessage[]> {
  const response = await app.inject({ url: `/find/chat/list/${classId}`, headers: bearer(user) });
  expect(response.statusCode).toBe(200);
  return response.json<ChatMessage[]>();
}

/** The transport sockjs-client settled on (its `transport` property once open). */
function transportOf(client: TestChatClient): unknown {
  return (client.socket as unknown as { transport?: string } | null)?.transport;
}

/** Sends raw bytes and answers the head of the server's answer (or what it wrote before closing). */
function rawExchange(request: string, waitMs = 2_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) socket.destroy();
    });
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.write(request);
  });
}

function upgrade(path: string, origin?: string): Promise<string> {
  return rawExchange(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${new URL(base).port}\r\nUpgrade: websocket\r\n` +
      'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n' +
      (origin ? `Origin: ${origin}\r\n` : '') +
      '\r\n',
    500,
  );
}

beforeAll(async () => {
  app = await buildTestApp({ corsOrigins: [FRONT], chat: { sockJs: { disconnectMs: 300 } } });
  wsUrl = await listenForChat(app);
  base = wsUrl.replace(/^ws/, 'http').replace(/\/ws$/, '');
  ({ classId, teacher, student } = await createChatClass(app));
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
});

describe('STOMP through SockJS (sockjs-client and @stomp/stompjs)', () => {
  it.each(['websocket', 'xhr-streaming', 'xhr-polling', 'eventsource'])(
    'over %s: connect, subscribe, send, receive and history, in the same chat as plain WebSocket clients',
    async (transport) => {
      const teacherClient = sockJsClient(teacher, transport);
      const studentClient = sockJsClient(student, transport);
      const plain = plainClient(student);
      await Promise.all([teacherClient.connect(), studentClient.connect(), plain.connect()]);
      expect(transportOf(teacherClient)).toBe(transport);
      expect(transportOf(studentClient)).toBe(transport);
      await Promise.all([teacherClient.join(classId), studentClient.join(classId), plain.join(classId)]);

      // Korean, an emoji, a quote and a line break: text that SockJS's JSON framing must carry intact.
      const content = `${transport} 안녕하세요 😀 "따옴표"\n둘째 줄 100%`;
      await studentClient.sendAndWait({ roomId: classId, content });
      const stored = (await history(teacher)).at(-1);
      expect(stored).toMatchObject({ content, writer: student.nickname, writer_id: student.id });
      await plain.sendAndWait({ roomId: classId, content: `${transport} plain` });
      await eventually(() => {
        for (const client of [teacherClient, studentClient, plain]) {
          expect(client.messages.map((m) => m.content)).toEqual([content, `${transport} plain`]);
        }
      });
      // The history reads the same through a token of the SockJS user.
      expect((await history(student)).slice(-2).map((m) => m.content)).toEqual([
        content,
        `${transport} plain`,
      ]);
    },
  );

  it('refuses a CONNECT without a valid token through SockJS as through the plain socket', async () => {
    const anonymous = new TestChatClient(wsUrl, 'not-a-token', {
      socket: () => new SockJS(`${base}/ws`, null, { transports: ['xhr-streaming'] }),
    });
    clients.push(anonymous);
    await expect(anonymous.connect()).rejects.toThrow(/token/);
  });
});

describe('the SockJS protocol at /ws', () => {
  it('greets, and answers /ws/info uncached with websocket available', async () => {
    for (const path of ['/ws', '/ws/']) {
      const greeting = await fetch(`${base}${path}`);
      expect(greeting.status).toBe(200);
      expect(await greeting.text()).toBe('Welcome to SockJS!\n');
    }
    const info = await fetch(`${base}/ws/info`);
    expect(info.status).toBe(200);
    expect(info.headers.get('cache-control')).toMatch(/no-store/);
    expect(info.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await info.json()).toMatchObject({ websocket: true, cookie_needed: false });
  });

  it('opens an xhr-polling session, takes posted messages, and closes it with a close frame on ERROR', async () => {
    const url = `${base}/ws/000/poll-session`;
    expect(await (await fetch(`${url}/xhr`, { method: 'POST' })).text()).toBe('o\n');
    // Not STOMP: the STOMP session answers ERROR and closes; the client reads both on its next poll.
    const send = await fetch(`${url}/xhr_send`, { method: 'POST', body: '["HELLO\\n\\n\\u0000"]' });
    expect(send.status).toBe(204);
    const next = await (await fetch(`${url}/xhr`, { method: 'POST' })).text();
    expect(next).toMatch(/^a\["ERROR\\n/);
    expect(next).toMatch(/\nc\[3000,"Go away!"\]\n$/);
  });

  it('refuses a payload that is not a JSON array of strings, and a session it does not know', async () => {
    const url = `${base}/ws/000/bad-payload`;
    expect(await (await fetch(`${url}/xhr`, { method: 'POST' })).text()).toBe('o\n');
    for (const body of ['', 'not json', '{"a":1}', '[1,2]']) {
      expect((await fetch(`${url}/xhr_send`, { method: 'POST', body })).status, body).toBe(400);
    }
    expect((await fetch(`${base}/ws/000/nobody/xhr_send`, { method: 'POST', body: '["x"]' })).status).toBe(
      404,
    );
    const tooLarge = JSON.stringify(['x'.repeat(200 * 1024)]);
    expect((await fetch(`${url}/xhr_send`, { method: 'POST', body: tooLarge })).status).toBe(413);
    // Transports the server does not offer, and ids with dots, are unknown paths.
    for (const path of ['/ws/iframe.html', '/ws/000/s1/jsonp', '/ws/000/s1/htmlfile', '/ws/0.0/s1/xhr']) {
      expect((await fetch(`${base}${path}`, { method: 'POST' })).status, path).toBe(404);
    }
  });

  it('lets one response at a time receive a session: another one gets close frame 2010', async () => {
    const url = `${base}/ws/000/twice`;
    const controller = new AbortController();
    const first = await fetch(`${url}/xhr_streaming`, { method: 'POST', signal: controller.signal });
    const reader = first.body?.getReader();
    let streamed = '';
    while (!streamed.includes('o\n')) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      streamed += new TextDecoder().decode(chunk.value);
    }
    expect(streamed).toMatch(/^h{2048}\no\n$/);
    expect(await (await fetch(`${url}/xhr`, { method: 'POST' })).text()).toBe(
      'c[2010,"Another connection still open"]\n',
    );
    controller.abort();
  });

  it('forgets a session whose client stops coming back, ending its STOMP session', async () => {
    const url = `${base}/ws/000/gone-away`;
    expect(await (await fetch(`${url}/xhr`, { method: 'POST' })).text()).toBe('o\n');
    expect((await fetch(`${url}/xhr_send`, { method: 'POST', body: '["\\n"]' })).status).toBe(204);
    // After the disconnect delay (300 ms in this app) the session is gone: posting to it is a 404.
    await eventually(async () => {
      expect((await fetch(`${url}/xhr_send`, { method: 'POST', body: '["x"]' })).status).toBe(404);
    });
  });
});

describe('origins', () => {
  it('gives a listed front end CORS with credentials on SockJS (sockjs-client’s XHRs send them)', async () => {
    const info = await fetch(`${base}/ws/info`, { headers: { origin: FRONT } });
    expect(info.status).toBe(200);
    expect(info.headers.get('access-control-allow-origin')).toBe(FRONT);
    expect(info.headers.get('access-control-allow-credentials')).toBe('true');
    const stream = await fetch(`${base}/ws/000/cors-stream/xhr`, {
      method: 'POST',
      headers: { origin: FRONT },
    });
    expect(stream.headers.get('access-control-allow-origin')).toBe(FRONT);
    expect(stream.headers.get('access-control-allow-credentials')).toBe('true');
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await stream.text()).toBe('o\n');
    // The REST API allows no credentials: it reads bearer tokens only.
    const api = await fetch(`${base}/api/categories`, { headers: { origin: FRONT } });
    expect(api.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('refuses pages of other origins on SockJS and on both WebSocket endpoints (403)', async () => {
    for (const origin of ['http://evil.example', 'null']) {
      expect((await fetch(`${base}/ws/info`, { headers: { origin } })).status).toBe(403);
      const post = await fetch(`${base}/ws/000/evil/xhr`, { method: 'POST', headers: { origin } });
      expect(post.status).toBe(403);
      expect(await upgrade('/ws', origin)).toMatch(/^HTTP\/1.1 403/);
      expect(await upgrade('/ws/000/evil/websocket', origin)).toMatch(/^HTTP\/1.1 403/);
    }
  });

  it('accepts upgrades from the server’s own pages, a listed origin and clients that send no Origin', async () => {
    const own = `http://127.0.0.1:${new URL(base).port}`;
    for (const origin of [own, FRONT, 'http://localhost:5000', undefined]) {
      expect(await upgrade('/ws', origin), String(origin)).toMatch(/^HTTP\/1.1 101/);
      expect(await upgrade('/ws/000/ok/websocket', origin), String(origin)).toMatch(/^HTTP\/1.1 101/);
    }
    expect(await upgrade('/ws/nope')).toMatch(/^HTTP\/1.1 404/);
  });
});
