// Memberships that end while a chat connection is open: a deleted class, a withdrawn student or teacher, and an
// enrolment removed outside the server (found by the periodic check).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { enrolments } from '../src/db/schema.ts';
import { createChatClass, eventually, listenForChat, TestChatClient } from './chat-clients.ts';
import { bearer, buildTestApp, type TestUser } from './helper.ts';

let app: FastifyInstance;
let url: string;
const clients: TestChatClient[] = [];

beforeAll(async () => {
  // No periodic check: what closes a connection here is the news from the classes and users modules.
  app = await buildTestApp({ chat: { membershipCheckMs: 0 } });
  url = await listenForChat(app);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await app.close();
});

async function joined(user: TestUser, classId: number, on = url): Promise<TestChatClient> {
  const client = new TestChatClient(on, user.token);
  clients.push(client);
  await client.connect();
  await client.join(classId);
  return client;
}

async function endedAsNonMember(client: TestChatClient): Promise<void> {
  await client.closed();
  expect(client.errors.map((frame) => frame.headers.message)).toEqual(['not a member of this class']);
}

describe('chat connections whose membership ends', () => {
  it('a deleted class closes its teacher’s and students’ connections; another class goes on', async () => {
    const room = await createChatClass(app);
    const other = await createChatClass(app);
    const [teacher, student, bystander] = await Promise.all([
      joined(room.teacher, room.classId),
      joined(room.student, room.classId),
      joined(other.student, other.classId),
    ]);
    const response = await app.inject({
      method: 'DELETE',
      url: `/api/classes/${room.classId}/delete`,
      headers: bearer(room.teacher),
    });
    expect(response.statusCode).toBe(200);
    await Promise.all([endedAsNonMember(teacher), endedAsNonMember(student)]);
    await bystander.sendAndWait({ roomId: other.classId, content: '계속' });
    await eventually(() => expect(bystander.messages.map((m) => m.content)).toEqual(['계속']));
    expect(bystander.client.connected).toBe(true);
  });

  it('a student who withdraws loses the connection; the teacher keeps theirs', async () => {
    const room = await createChatClass(app);
    const [teacher, student] = await Promise.all([
      joined(room.teacher, room.classId),
      joined(room.student, room.classId),
    ]);
    const response = await app.inject({
      method: 'DELETE',
      url: '/api/auth/signup',
      headers: bearer(room.student),
    });
    expect(response.statusCode).toBe(200);
    await endedAsNonMember(student);
    await teacher.sendAndWait({ roomId: room.classId, content: '아직 있어요' });
    expect(teacher.client.connected).toBe(true);
    // Nor can the withdrawn student come back with the token they still hold.
    const again = new TestChatClient(url, room.student.token);
    clients.push(again);
    await expect(again.connect()).rejects.toThrow(/token/);
  });

  it('a student who cancels the enrolment loses that class’s connection within a second', async () => {
    const room = await createChatClass(app);
    const [teacher, student] = await Promise.all([
      joined(room.teacher, room.classId),
      joined(room.student, room.classId),
    ]);
    const since = Date.now();
    const response = await app.inject({
      method: 'DELETE',
      url: `/api/classes/${room.classId}/enroll`,
      headers: bearer(room.student),
    });
    expect(response.statusCode).toBe(200);
    await endedAsNonMember(student);
    expect(Date.now() - since).toBeLessThan(1_000);
    await teacher.sendAndWait({ roomId: room.classId, content: '남아 있어요' });
    expect(teacher.client.connected).toBe(true);
  });

  it('a teacher who withdraws deletes the class: its students’ connections close', async () => {
    const room = await createChatClass(app);
    const student = await joined(room.student, room.classId);
    const response = await app.inject({
      method: 'DELETE',
      url: '/api/auth/signup',
      headers: bearer(room.teacher),
    });
    expect(response.statusCode).toBe(200);
    await endedAsNonMember(student);
  });

  it('an enrolment removed outside the server is found by the periodic check', async () => {
    const checking = await buildTestApp({ chat: { membershipCheckMs: 300 } });
    try {
      const room = await createChatClass(checking);
      const student = await joined(room.student, room.classId, await listenForChat(checking));
      await checking.db
        .delete(enrolments)
        .where(and(eq(enrolments.classId, room.classId), eq(enrolments.userId, room.student.id)));
      const started = Date.now();
      await endedAsNonMember(student);
      // The check runs every 300 ms here; a busy machine may delay it, never by seconds.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await checking.close();
    }
  });
});
