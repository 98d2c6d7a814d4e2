import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_NODE_AUDIENCE, MEDIA_REVOCATION_PATH, type MediaRevocation } from '@sea/contract/media-nodes';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser } from '../../test/helper.ts';
import { FakeNode, room } from '../../test/media-node-report.ts';

let app: FastifyInstance;
let nodeServer: http.Server;
/** What the node received, with when. */
const received: { at: number; path?: string; revocation: MediaRevocation }[] = [];
let node: FakeNode;

beforeAll(async () => {
  app = await buildTestApp();
  // The node's internal route: takes only the API server's calls (MEDIA_SECRET, the node audience).
  nodeServer = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      jwtVerify(token, new TextEncoder().encode(app.config.mediaSecret), {
        audience: MEDIA_NODE_AUDIENCE,
      }).then(
        () => {
          received.push({
            at: Date.now(),
            path: request.url,
            revocation: JSON.parse(body) as MediaRevocation,
          });
          response.writeHead(200).end('{}');
        },
        () => response.writeHead(401).end(),
      );
    });
  });
  await new Promise<void>((resolve) => nodeServer.listen(0, '127.0.0.1', resolve));
  node = new FakeNode(app, 'node-a', `http://127.0.0.1:${(nodeServer.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await app.close();
  await new Promise((resolve) => nodeServer.close(resolve));
});

/** Waits (at most a second) for the node to receive one more call; answers it and how long it took. */
async function nextCall(since: number, count: number) {
  while (received.length <= count && Date.now() - since < 1_000) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const call = received[count];
  if (call === undefined) throw new Error('the media node was not told within a second');
  return { ...call, afterMs: call.at - since };
}

describe('telling the media nodes that a membership ended', () => {
  it('a withdrawn student: the node that has rooms is told within a second', async () => {
    const teacher = await createUser(app);
    const student = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    await insertEnrolment(app, classId, student.id);
    await node.report({ rooms: [room(classId, { students: [student.id] })] });

    const count = received.length;
    const since = Date.now();
    expectOk(await app.inject({ method: 'DELETE', url: '/api/auth/signup', headers: bearer(student) }));
    const call = await nextCall(since, count);
    expect(call.path).toBe(MEDIA_REVOCATION_PATH);
    expect(call.revocation).toEqual({ classIds: [], sessionKeys: [], students: [{ userId: student.id }] });
    expect(call.afterMs).toBeLessThan(1_000);
    // The report's answer says it again, in case the call was lost.
    expect((await node.report({ rooms: [room(classId, { students: [student.id] })] })).students).toEqual([
      { classId, userId: student.id },
    ]);
  });

  it('a deleted class: the node that has its room is told to close it', async () => {
    const teacher = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    await node.report({ rooms: [room(classId)] });
    const count = received.length;
    const since = Date.now();
    expectOk(
      await app.inject({ method: 'DELETE', url: `/api/classes/${classId}/delete`, headers: bearer(teacher) }),
    );
    expect((await nextCall(since, count)).revocation).toEqual({
      classIds: [classId],
      sessionKeys: [],
      students: [],
    });
  });

  it('a withdrawn teacher: the rooms of the classes they taught close', async () => {
    const teacher = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    await node.report({ rooms: [room(classId)] });
    const count = received.length;
    const since = Date.now();
    expectOk(await app.inject({ method: 'DELETE', url: '/api/auth/signup', headers: bearer(teacher) }));
    expect((await nextCall(since, count)).revocation).toEqual({
      classIds: [classId],
      sessionKeys: [],
      students: [{ userId: teacher.id }],
    });
  });

  it('a cancelled enrolment: the node that runs the class is told that student leaves it', async () => {
    const teacher = await createUser(app);
    const student = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    await insertEnrolment(app, classId, student.id);
    await node.report({ rooms: [room(classId, { students: [student.id] })] });
    const count = received.length;
    const since = Date.now();
    expectOk(
      await app.inject({ method: 'DELETE', url: `/api/classes/${classId}/enroll`, headers: bearer(student) }),
    );
    const call = await nextCall(since, count);
    expect(call.revocation).toEqual({
      classIds: [],
      sessionKeys: [],
      students: [{ classId, userId: student.id }],
    });
    expect(call.afterMs).toBeLessThan(1_000);
    expect((await node.report({ rooms: [room(classId, { students: [student.id] })] })).students).toEqual([
      { classId, userId: student.id },
    ]);
  });
});
