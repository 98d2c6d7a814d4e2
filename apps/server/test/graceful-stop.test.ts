// Two API servers on one PostgreSQL database and one Redis, as behind the production proxy: the first is stopped
// with SIGTERM while chat clients are connected. They hear that they should reconnect, come back on the second,
// and a message sent then reaches everyone exactly once; a request in flight at the stop is answered.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_RECONNECT_HEADER,
  CHAT_RESTART_MESSAGE,
  CHAT_RESTART_RECONNECT_MS,
  type ChatMessage,
} from '@sea/contract/chat';
import type { ClassItem } from '@sea/contract/classes';
import { freePort } from '@sea/service-kit/test/free-port';
import { RoomConnection } from '../../web/src/lib/realtime/room-connection.ts';
import { eventually, TestChatClient } from './chat-clients.ts';
import { classDto } from './classes.ts';
import { FailoverProxy } from './failover-proxy.ts';
import { createTestDatabase, postgresAvailable } from './helper.ts';
import { jpeg } from './images.ts';
import { devLoginOver, jsonForm, startServer, stopServer, type ServerProcess } from './server-process.ts';
import { skipNotice } from './skip-notice.ts';

const PUBLIC_URL = 'http://localhost:5173';
/** serve.ts's own limit for a stop (SHUTDOWN_TIMEOUT_MS), plus the time a process takes to go. */
const STOP_LIMIT_MS = 12_000;

const postgresUp = await postgresAvailable();
const enabled = postgresUp && process.env.TEST_DATABASE !== 'postgres';
if (!postgresUp)
  skipNotice('PostgreSQL is not reachable: SKIPPING the graceful stop test (two servers share one database)');

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
}, 60_000);

/** A Redis of this test's own (the shared one carries other tests' chat channel). */
async function startRedis(): Promise<string> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  cleanups.push(() => child.kill('SIGKILL'));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return `redis://127.0.0.1:${port}`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('redis-server did not start');
}

async function api<T>(server: ServerProcess, route: string, token: string, init: RequestInit = {}) {
  const response = await fetch(new URL(route, server.url), {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
  });
  const body = (await response.json()) as { data: T };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.data;
}

const portOf = (server: ServerProcess): number => Number(new URL(server.url).port);
const chatUrl = (port: number): string => `ws://127.0.0.1:${port}/ws`;
const contents = (messages: readonly ChatMessage[]): string[] => messages.map((m) => m.content);

let first: ServerProcess;
let second: ServerProcess;
let classId = 0;
const tokens = { teacher: '', student: '', other: '' };

beforeAll(async () => {
  if (!enabled) return;
  const database = await createTestDatabase({ migrated: true });
  cleanups.push(database.drop);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-graceful-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // One DATA_DIR: both servers read the same generated JWT secret, so a token of one works on the other.
  const env = { DATA_DIR: dataDir, DATABASE_URL: database.url, REDIS_URL: await startRedis(), PUBLIC_URL };
  first = await startServer(env);
  cleanups.push(() => stopServer(first));
  second = await startServer(env);
  cleanups.push(() => stopServer(second));

  const people = [
    ['teacher', '7101', '멈춤선생'],
    ['student', '7102', '멈춤학생'],
    ['other', '7103', '다른학생'],
  ] as const;
  for (const [who, kakaoId, nickname] of people) {
    tokens[who] = (await devLoginOver(first.url, kakaoId, PUBLIC_URL)).accessToken;
    await api(first, '/api/auth/signup', tokens[who], {
      method: 'POST',
      body: jsonForm('signupRequestDto', { nickname, email: null }),
    });
  }
  const created = await api<ClassItem>(first, '/api/classes', tokens.teacher, {
    method: 'POST',
    body: jsonForm('classroomCreateDto', classDto({ name: '다시 시작하는 강의' }), await jpeg(800, 300)),
  });
  classId = created.id;
  for (const who of ['student', 'other'] as const)
    await api(first, `/api/classes/${classId}/enroll`, tokens[who], { method: 'POST' });
}, 300_000);

describe.skipIf(!enabled)('stopping one of two API servers', () => {
  it('tells chat clients to reconnect; they come back on the other server and miss nothing', async () => {
    const proxy = new FailoverProxy([portOf(first), portOf(second)]);
    await proxy.start();
    cleanups.push(() => proxy.stop());
    // The web app's chat, through the proxy (it never learns that the server behind it changed).
    const web = new RoomConnection({
      classId,
      url: chatUrl(proxy.port),
      getToken: () => tokens.student,
      fetchHistory: async (id, after) => {
        const query = after === undefined ? '' : `?after=${after}&size=500`;
        const response = await fetch(`http://127.0.0.1:${proxy.port}/find/chat/list/${id}${query}`, {
          headers: { authorization: `Bearer ${tokens.student}` },
        });
        if (!response.ok) throw new Error(`history answered ${response.status}`);
        return (await response.json()) as ChatMessage[];
      },
      reconnectDelayMs: 500,
      heartbeatMs: 10_000,
    });
    cleanups.push(() => web.close());
    const teacher = new TestChatClient(chatUrl(portOf(first)), tokens.teacher);
    const other = new TestChatClient(chatUrl(portOf(first)), tokens.other);
    for (const client of [teacher, other]) {
      await client.connect();
      await client.join(classId);
    }
    await eventually(() => expect(web.state).toBe('connected'), 10_000);
    await teacher.sendAndWait({ roomId: classId, content: '멈추기 전' });
    await eventually(() => expect(contents(web.messages)).toEqual(['멈추기 전']), 10_000);

    // An upload in flight when the stop comes: its body is still arriving.
    const slowUpload = startSlowUpload(first, tokens.teacher);
    await slowUpload.started;
    const stoppedAt = Date.now();
    const exited = stopServer(first, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    slowUpload.finish();

    for (const client of [teacher, other]) {
      await eventually(() => expect(client.errors).toHaveLength(1), 10_000);
      const [frame] = client.errors;
      expect(frame?.headers.message).toBe(CHAT_RESTART_MESSAGE);
      expect(frame?.headers[CHAT_RECONNECT_HEADER]).toBe(String(CHAT_RESTART_RECONNECT_MS));
    }
    expect(await slowUpload.status).toBe(200);
    expect(await exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(STOP_LIMIT_MS);

    // Back on the second server: the test clients by its address, the web one through the proxy.
    const teacherAgain = new TestChatClient(chatUrl(portOf(second)), tokens.teacher);
    const otherAgain = new TestChatClient(chatUrl(portOf(second)), tokens.other);
    for (const client of [teacherAgain, otherAgain]) {
      await client.connect();
      await client.join(classId);
    }
    cleanups.push(
      () => teacherAgain.client.deactivate(),
      () => otherAgain.client.deactivate(),
    );
    await eventually(() => expect(web.state).toBe('connected'), 15_000);
    await teacherAgain.sendAndWait({ roomId: classId, content: '다시 모였어요' });
    await eventually(() => expect(contents(otherAgain.messages)).toEqual(['다시 모였어요']), 10_000);
    expect(contents(teacherAgain.messages)).toEqual(['다시 모였어요']);
    await eventually(() => expect(contents(web.messages)).toEqual(['멈추기 전', '다시 모였어요']), 10_000);
    // Nothing comes twice later either (a late fan-out copy, a catch-up overlapping the live message).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(contents(web.messages)).toEqual(['멈추기 전', '다시 모였어요']);
    expect(contents(otherAgain.messages)).toEqual(['다시 모였어요']);
    expect(contents(teacherAgain.messages)).toEqual(['다시 모였어요']);
  }, 120_000);
});

/**
 * A profile update (multipart, with an image) whose body is sent in two halves over its own connection:
 * `started` once the first half has been with the server for a while (it is routed and being read), the rest
 * on `finish()`; `status` is the answer's status code.
 */
function startSlowUpload(server: ServerProcess, token: string) {
  const boundary = 'sea-graceful-stop';
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const status = (async () => {
    const image = await jpeg(400, 400);
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="userUpdateDTO"; filename="blob"\r\n` +
        `Content-Type: application/json\r\n\r\n${JSON.stringify({ nickname: '멈춤선생' })}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="imagefile"; filename="me.jpg"\r\n` +
        `Content-Type: image/jpeg\r\n\r\n`,
    );
    const tail = Buffer.concat([image, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    return new Promise<number>((resolve, reject) => {
      const request = http.request(new URL('/api/users', server.url), {
        method: 'PATCH',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + tail.length),
        },
      });
      request.once('error', reject);
      request.once('response', (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
      });
      request.write(head);
      request.once('socket', (socket) => socket.once('connect', () => setTimeout(markStarted, 500)));
      void released.then(() => request.end(tail));
    });
  })();
  return { started, finish: release, status };
}
