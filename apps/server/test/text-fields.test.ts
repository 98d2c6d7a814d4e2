import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHAT_LENGTH } from '@sea/contract/chat';
import { TEXT_MESSAGES } from '@sea/contract/text';
import { classDto, insertClass, postClass } from './classes.ts';
import { createChatClass, eventually, listenForChat, TestChatClient } from './chat-clients.ts';
import { expectError, expectOk } from './expect-envelope.ts';
import { bearer, buildTestApp, createAccount, createUser, type TestUser } from './helper.ts';
import { jsonPart, multipart } from './multipart.ts';

// Every text a client can send through the API, each with a text that holds `bad` (U+0000 and the like).
// PostgreSQL refuses NUL in text (a 500 before this rule); every field answers 400 on that field instead.

let app: FastifyInstance;
let teacher: TestUser;
let classId: number;
let chatUrl: string;
const clients: TestChatClient[] = [];

beforeAll(async () => {
  app = await buildTestApp();
  teacher = await createUser(app);
  classId = await insertClass(app, teacher.id);
  chatUrl = await listenForChat(app);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await app.close();
});

function multipartRequest(method: 'POST' | 'PATCH', url: string, part: string, json: unknown, token: string) {
  const { payload, headers } = multipart([jsonPart(part, json)]);
  return app.inject({ method, url, payload, headers: { ...headers, authorization: `Bearer ${token}` } });
}

type Send = (text: string) => Promise<LightMyRequestResponse>;
const FIELDS: Array<[route: string, field: string, send: Send]> = [
  [
    'POST /api/auth/signup',
    'nickname',
    async (text) =>
      multipartRequest(
        'POST',
        '/api/auth/signup',
        'signupRequestDto',
        { nickname: text },
        (await createAccount(app)).token,
      ),
  ],
  [
    'PATCH /api/users',
    'nickname',
    async (text) =>
      multipartRequest(
        'PATCH',
        '/api/users',
        'userUpdateDTO',
        { nickname: text },
        (await createUser(app)).token,
      ),
  ],
  [
    'GET /api/users/checkNickname',
    'nickname',
    (text) => app.inject({ url: '/api/users/checkNickname', query: { nickname: text } }),
  ],
  ...(['name', 'object', 'description', 'instructorInfo', 'prerequisite', 'announcement'] as const).flatMap(
    (field): Array<[string, string, Send]> => [
      // A teacher (and class) of its own per request: the write limits count per user.
      [
        'POST /api/classes',
        field,
        async (text) => postClass(app, await createUser(app), classDto({ [field]: text })),
      ],
      [
        'PATCH /api/classes/{id}',
        field,
        async (text) => {
          const owner = await createUser(app);
          const id = await insertClass(app, owner.id);
          return multipartRequest(
            'PATCH',
            `/api/classes/${id}`,
            'classroomUpdateDto',
            { [field]: text },
            owner.token,
          );
        },
      ],
    ],
  ),
  [
    'POST /api/classes/{id}/schedule',
    'content',
    (text) =>
      app.inject({
        method: 'POST',
        url: `/api/classes/${classId}/schedule`,
        headers: bearer(teacher),
        payload: { content: text, date: '2026-03-01', start_time: '09:00:00', end_time: '10:00:00' },
      }),
  ],
];

const BAD = [
  ['U+0000', '\u0000'],
  ['escape', '\u001b'],
  ['C1 control', '\u0085'],
  // JSON bodies only: a query string is UTF-8, which has no way to carry half a character.
  ['lone surrogate', '\ud800'],
] as const;

describe('every text field refuses control characters with a 400 on that field', () => {
  it.each(
    FIELDS.flatMap(([route, field, send]) =>
      BAD.filter(([name]) => !(route.startsWith('GET') && name === 'lone surrogate')).map(
        ([name, bad]) => [route, field, name, bad, send] as const,
      ),
    ),
  )('%s %s with %s', async (_route, field, _name, bad, send) => {
    const body = expectError(await send(`파도${bad}선생`), 400);
    expect(body.invalid_fields?.[field]).toBe(TEXT_MESSAGES.control);
  });

  let ordinary = 0;
  it.each(FIELDS)('%s %s still takes ordinary text', async (_route, _field, send) => {
    ordinary += 1;
    expectOk(await send(`파도선생 ${ordinary}`));
  });
});

describe('chat messages', () => {
  it('refuses control characters without closing the connection, and still takes line breaks', async () => {
    const chat = await createChatClass(app);
    const sender = new TestChatClient(chatUrl, chat.student.token);
    clients.push(sender);
    await sender.connect();
    await sender.join(chat.classId);
    sender.send({ roomId: chat.classId, content: '안녕\u0000하세요' });
    sender.send({ roomId: chat.classId, content: '안녕\ud800' });
    await eventually(() =>
      expect(sender.refusals.map((r) => [r.code, r.message])).toEqual([
        ['bad-request', TEXT_MESSAGES.control],
        ['bad-request', TEXT_MESSAGES.control],
      ]),
    );
    await sender.sendAndWait({ roomId: chat.classId, content: '첫 줄\n둘째 줄' });
    expect(sender.client.connected).toBe(true);
  });

  it('counts characters as a person does: 1 000 emoji fit, 1 001 do not', async () => {
    const chat = await createChatClass(app);
    const sender = new TestChatClient(chatUrl, chat.student.token);
    clients.push(sender);
    await sender.connect();
    await sender.join(chat.classId);
    sender.send({ roomId: chat.classId, content: '👍🏽'.repeat(MAX_CHAT_LENGTH + 1) });
    await eventually(() => expect(sender.refusals.map((r) => r.code)).toEqual(['too-long']));
    await sender.sendAndWait({ roomId: chat.classId, content: '👍🏽'.repeat(MAX_CHAT_LENGTH) });
  });
});
