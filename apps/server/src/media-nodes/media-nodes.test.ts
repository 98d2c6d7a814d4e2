import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassItem } from '@sea/contract/classes';
import {
  MEDIA_NODE_AUDIENCE,
  MEDIA_NODE_TIMEOUT_MS,
  MEDIA_REVOCATION_PATH,
  type MediaRevocation,
} from '@sea/contract/media-nodes';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser } from '../../test/helper.ts';
import { FakeNode, isLiveNow, room, sessionsOf } from '../../test/media-node-report.ts';
import { sweepHandedOver } from './node-sweep.ts';

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

/**
 * A class live on the node with a student in its room; `count` and `since` mark the calls the node had, and
 * when, before what the test does next.
 */
async function lectureWithStudent() {
  const teacher = await createUser(app);
  const student = await createUser(app);
  const classId = await insertClass(app, teacher.id);
  await insertEnrolment(app, classId, student.id);
  await node.report({ rooms: [room(classId, { students: [student.id] })] });
  return { student, classId, count: received.length, since: Date.now() };
}

describe('telling the media nodes that a membership ended', () => {
  it('a withdrawn student: the node that has rooms is told within a second', async () => {
    const { student, classId, count, since } = await lectureWithStudent();
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
    const { student, classId, count, since } = await lectureWithStudent();
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

describe('MediaNodes.gone: a node whose process is gone while its registry entry is fresh', () => {
  /** An HTTP server on loopback answering /health, or, once `hang` is set, accepting and never answering. */
  async function healthServer() {
    const sockets = new Set<Socket>();
    const control = { hang: false };
    const server = http.createServer((_request, response) => {
      if (!control.hang) response.writeHead(200).end('{}');
    });
    server.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const stop = async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    };
    return { url, stop, control };
  }

  it('answers true once a node that answered this run refuses connections, false while it answers', async () => {
    const health = await healthServer();
    const node = new FakeNode(app, undefined, health.url);
    await node.report();
    await app.mediaNodes.probe(node.id, node.url, node.boot);
    expect(await app.mediaNodes.gone(node.id)).toBe(false);
    await health.stop();
    const since = performance.now();
    expect(await app.mediaNodes.gone(node.id)).toBe(true);
    expect(performance.now() - since).toBeLessThan(400);
  });

  it('a crashed node: its class stops being live within 5 s, its session waits for the teacher', async () => {
    const health = await healthServer();
    const node = new FakeNode(app, undefined, health.url);
    const teacher = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    await node.report({ rooms: [room(classId)] });
    await app.mediaNodes.probe(node.id, node.url, node.boot);
    expect(await isLiveNow(app, classId)).toBe(true);
    // Answering: the watch leaves it alone.
    expect(await app.mediaNodes.watch()).toEqual([]);
    await health.stop();
    const crashed = Date.now();
    // The server's own watch (every second) notices; the report interval's sweep would take 20 s.
    while ((await isLiveNow(app, classId)) && Date.now() - crashed < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await isLiveNow(app, classId)).toBe(false);
    expect(Date.now() - crashed).toBeLessThan(5_000);
    const [session] = await sessionsOf(app, classId);
    expect(session?.endedAt ?? null).toBeNull();
    // The live list shows it waiting for its teacher, not live; once the wait is over, not at all.
    const listed = async () =>
      expectOk<ClassItem[]>(await app.inject('/api/classes?target=live')).find((item) => item.id === classId);
    expect(await listed()).toMatchObject({ is_active: false, live_waiting: true, live_viewer_count: null });
    expect(await sweepHandedOver(app.db, new Date(Date.now() + MEDIA_NODE_TIMEOUT_MS + 1_000))).toHaveLength(
      1,
    );
    expect(await listed()).toBeUndefined();
  });

  it('a node that accepts connections is not gone, even while it does not answer (busy)', async () => {
    const health = await healthServer();
    const node = new FakeNode(app, undefined, health.url);
    await node.report();
    await app.mediaNodes.probe(node.id, node.url, node.boot);
    health.control.hang = true;
    const since = performance.now();
    expect(await app.mediaNodes.gone(node.id)).toBe(false);
    expect(performance.now() - since).toBeLessThan(1_000);
    await health.stop();
  });

  it('a refusal at a URL never reached in this run is no proof (a wrong MEDIA_INTERNAL_URL, a new run)', async () => {
    const closed = await healthServer();
    await closed.stop();
    const wrong = new FakeNode(app, undefined, closed.url);
    await wrong.report();
    await app.mediaNodes.probe(wrong.id, wrong.url, wrong.boot);
    expect(await app.mediaNodes.gone(wrong.id)).toBe(false);

    const health = await healthServer();
    const restarted = new FakeNode(app, undefined, health.url);
    await restarted.report();
    await app.mediaNodes.probe(restarted.id, restarted.url, restarted.boot);
    restarted.restart();
    await health.stop();
    await restarted.report();
    expect(await app.mediaNodes.gone(restarted.id)).toBe(false);
    expect(await app.mediaNodes.gone('never-reported')).toBe(false);
  });
});
