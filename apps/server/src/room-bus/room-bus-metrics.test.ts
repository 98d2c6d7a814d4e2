import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@sea/contract/paths';
import { createChatClass, eventually, listenForChat, TestChatClient } from '../../test/chat-clients.ts';
import { buildTestApp, type TestUser } from '../../test/helper.ts';
import { parsePrometheusText, type Sample, valueOf } from '../../test/prometheus-text.ts';

let app: FastifyInstance;
let url: string;
let classId: number;
let teacher: TestUser;
let student: TestUser;
const clients: TestChatClient[] = [];

beforeAll(async () => {
  app = await buildTestApp();
  url = await listenForChat(app);
  ({ classId, teacher, student } = await createChatClass(app));
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await app.close();
});

/** Scrapes /metrics over HTTP, as Prometheus does. */
async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${url.replace(/^ws/, 'http').replace(/\/ws$/, '')}${ROUTES.metrics}`);
  expect(response.status).toBe(200);
  return parsePrometheusText(await response.text());
}

function client(token: string): TestChatClient {
  const made = new TestChatClient(url, token);
  clients.push(made);
  return made;
}

describe('chat metrics', () => {
  it('move by exactly the connections, subscriptions, messages, deliveries and refusals of real traffic', async () => {
    const before = await scrape();
    const teacherClient = client(teacher.token);
    const studentClient = client(student.token);
    await Promise.all([teacherClient.connect(), studentClient.connect()]);
    await Promise.all([teacherClient.join(classId), studentClient.join(classId)]);
    const sent = ['하나', '둘', '셋'];
    for (const content of sent) await studentClient.sendAndWait({ roomId: classId, content });
    await eventually(() => expect(teacherClient.messages).toHaveLength(sent.length));
    await eventually(() => expect(studentClient.messages).toHaveLength(sent.length));
    studentClient.send({ roomId: classId, content: '   ' });
    await eventually(() => expect(studentClient.refusals).toHaveLength(1));
    const stranger = client('not-a-token');
    await expect(stranger.connect()).rejects.toThrow(/token/);
    await stranger.closed();

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('chat_messages_total')).toBe(sent.length);
    expect(moved('chat_deliveries_total')).toBe(sent.length * 2);
    expect(moved('chat_refused_frames_total', { reason: 'blank' })).toBe(1);
    expect(moved('chat_refused_frames_total', { reason: 'error' })).toBe(1);
    expect(valueOf(after, 'chat_connections')).toBe(2);
    expect(valueOf(after, 'chat_subscriptions')).toBe(2);

    await Promise.all([teacherClient.close(), studentClient.close()]);
    await eventually(async () => {
      const closed = await scrape();
      expect(valueOf(closed, 'chat_connections')).toBe(0);
      expect(valueOf(closed, 'chat_subscriptions')).toBe(0);
    });
  });
});
