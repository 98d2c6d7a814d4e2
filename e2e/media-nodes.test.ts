import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attendance } from '@sea/contract/attendance';
import { MEDIA_REGISTRY_PREFIX } from '@sea/contract/media-registry';
import type { SessionItem } from '@sea/contract/sessions';
import { ROUTES, toPath } from '@sea/contract/paths';
import { devLoginOver, jsonForm } from '../apps/server/test/server-process.ts';
import { ApiClient } from './harness/api.ts';
import { TicketedStudent, TicketedTeacher, ticketSource } from './harness/live-clients.ts';
import { planMedia, startMedia, type MediaLink } from '../harness/media-process.ts';
import { keyExists, startRedis } from '../harness/redis-process.ts';
import { startServer, type RunningServer } from '../harness/server-process.ts';
import { buildWebOnce } from '../harness/web-build.ts';

/*
 * One class across three media node processes sharing a Redis, placed by the real API server (PGlite): a
 * synthetic teacher on the origin, light students on it and on two edges through real tickets. An edge is
 * killed mid-lecture, then the origin; the clients follow fresh tickets as the web client does.
 */

const redisInstalled = spawnSync('redis-server', ['--version']).status === 0;
if (!redisInstalled && process.env.CI === 'true') throw new Error('redis-server is required when CI=true');
if (!redisInstalled) console.warn('media-nodes.test.ts: SKIPPED, no redis-server on this machine');

const PROGRAMMING = 13;
/** The bound for students of a dead node to receive again elsewhere. */
const EDGE_RECOVERY_MS = 5_000;
/** The origin's death: its entry goes stale (within 2 s), the teacher is placed on an edge and publishes. */
const ORIGIN_RECOVERY_MS = 12_000;

const cleanups: (() => Promise<unknown> | unknown)[] = [];
/** The live clients, closed before the services (which would otherwise send them looking for new tickets). */
const clients: { close: () => Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await delay(50);
  }
}

/** The class's sessions, as its teacher's sessions page reads them. */
async function sessionsOf(api: RunningServer, teacher: ApiClient, classId: number): Promise<SessionItem[]> {
  const response = await fetch(`${api.baseUrl}${toPath(ROUTES.sessions, { classId })}`, {
    headers: { authorization: `Bearer ${teacher.tokens.accessToken}` },
  });
  return ((await response.json()) as { data: SessionItem[] }).data;
}

/** A user logged in through the dev provider and signed up: a token for the API. */
async function account(api: RunningServer, kakaoId: string, nickname: string): Promise<ApiClient> {
  const tokens = await devLoginOver(api.baseUrl, kakaoId, api.baseUrl);
  const response = await fetch(`${api.baseUrl}/api/auth/signup`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.accessToken}` },
    body: jsonForm('signupRequestDto', { nickname, email: null }),
  });
  if (!response.ok) throw new Error(`signup answered ${response.status}: ${await response.text()}`);
  return new ApiClient(api.baseUrl, tokens);
}

/** The platform without media nodes yet: Redis, the API server, a class, its teacher and four students. */
type Platform = {
  api: RunningServer;
  redisUrl: string;
  dataDir: string;
  links: [MediaLink, MediaLink, MediaLink];
  classId: number;
  teacherAccount: ApiClient;
  studentAccounts: ApiClient[];
  students: [TicketedStudent, TicketedStudent, TicketedStudent, TicketedStudent];
};

async function platform(): Promise<Platform> {
  const redis = await startRedis();
  cleanups.push(redis.stop);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-media-nodes-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const first = await planMedia();
  const links: MediaLink[] = [first, { ...(await planMedia()), secret: first.secret }];
  links.push({ ...(await planMedia()), secret: first.secret });
  // No web app is served here: an empty folder stands for its build.
  const api = await startServer(dataDir, {
    env: { REDIS_URL: redis.url, MEDIA_URL: first.mediaUrl, MEDIA_SECRET: first.secret },
  });
  cleanups.push(api.stop);
  const teacherAccount = await account(api, '8101', '여러노드선생');
  const classId = await teacherAccount.createClass({ categoryId: PROGRAMMING, name: '여러 노드 강의' });
  const students: TicketedStudent[] = [];
  const studentAccounts: ApiClient[] = [];
  for (const n of [1, 2, 3, 4]) {
    const client = await account(api, `810${n + 1}`, `여러노드학생${n}`);
    studentAccounts.push(client);
    await client.enroll(classId);
    const student = new TicketedStudent(ticketSource(api.baseUrl, classId, client.tokens.accessToken));
    clients.push(student);
    students.push(student);
  }
  return {
    api,
    redisUrl: redis.url,
    dataDir,
    links: links as Platform['links'],
    classId,
    teacherAccount,
    studentAccounts,
    students: students as Platform['students'],
  };
}

describe.skipIf(!redisInstalled)('one class across three media nodes', () => {
  let setup: Platform;
  beforeAll(async () => {
    // This journey serves no web app, but its 5 s recoveries are timed: it waits for the e2e project's one web
    // build (under its lock, in whichever file comes first) rather than run beside it. Run beside the build, a
    // fresh-clone CI run had four of its six cases fail (packets not flowing, placements on another node),
    // which pass alone and in the other runs.
    buildWebOnce();
    setup = await platform();
  }, 240_000);

  it('an edge killed: its students are back on another node within 5 s; the origin killed: the room comes back on an edge', async () => {
    const t0 = performance.now();
    const steps: string[] = [];
    const step = (what: string) => steps.push(`${((performance.now() - t0) / 1000).toFixed(1)} s ${what}`);
    try {
      await lecture(setup, step);
    } finally {
      console.info(`media nodes, steps: ${steps.join('; ')}`);
    }
  }, 60_000);

  it('the origin killed with two edges: the teacher goes to one, the other edge follows it there', async () => {
    const { api, teacherAccount, studentAccounts } = setup;
    const classId = await teacherAccount.createClass({ categoryId: PROGRAMMING, name: '따라가는 강의' });
    const tickets = await Promise.all(
      studentAccounts.slice(0, 3).map(async (client) => {
        await client.enroll(classId);
        return ticketSource(api.baseUrl, classId, client.tokens.accessToken);
      }),
    );
    const [t1, t2, t3] = tickets as [
      (typeof tickets)[number],
      (typeof tickets)[number],
      (typeof tickets)[number],
    ];
    // Nodes of one place each, on fresh addresses: the origin first (the teacher and student 1), then the edges
    // B and C (students 2 and 3).
    const first = await planMedia();
    const links = [first, await planMedia(), await planMedia()].map((link) => ({
      ...link,
      secret: setup.links[0].secret,
    }));
    const [linkA, linkB, linkC] = links as [MediaLink, MediaLink, MediaLink];
    const nodeA = await startNode(setup, linkA, 'follow-a', 1);
    const teacher = new TicketedTeacher(
      ticketSource(api.baseUrl, classId, teacherAccount.tokens.accessToken),
    );
    const students = [new TicketedStudent(t1), new TicketedStudent(t2), new TicketedStudent(t3)];
    clients.push(teacher, ...students);
    const [s1, s2, s3] = students as [TicketedStudent, TicketedStudent, TicketedStudent];
    await teacher.enter();
    await s1.enter();
    await Promise.all([startNode(setup, linkB, 'follow-b', 1), startNode(setup, linkC, 'follow-c', 1)]);
    await s2.enter();
    await s3.enter();
    expect([teacher, ...students].map((c) => c.mediaUrl)).toEqual([
      linkA.mediaUrl,
      linkA.mediaUrl,
      linkB.mediaUrl,
      linkC.mediaUrl,
    ]);
    await until(() => students.every((s) => s.webcamPackets > 30), 15_000, 'every student gets the webcam');

    // Student 1 only filled the origin: it leaves (both edges are full, it would be refused as `full`).
    await s1.close();
    nodeA.kill('SIGKILL');
    const killed = performance.now();
    // Both edges are full, equally: the teacher goes to B (the node id breaks the tie), C pulls from B.
    await until(
      () => [s2, s3].every((s) => s.webcamBackAfter(killed) !== null),
      ORIGIN_RECOVERY_MS,
      'the students of both edges receive the webcam again',
    );
    const back = [s2, s3].map((s) => Math.round((s.webcamBackAfter(killed) ?? 0) - killed));
    console.info(
      `media nodes: origin killed with two edges; the teacher published on B after ` +
        `${Math.round((teacher.enteredAt ?? 0) - killed)} ms; edge students received the webcam again after ${back.join(' and ')} ms`,
    );
    expect(teacher.mediaUrl).toBe(linkB.mediaUrl);
    // C's student never reconnected: edge C followed the class to B.
    expect([s2.lostAt, s3.lostAt]).toEqual([null, null]);
    expect(s3.mediaUrl).toBe(linkC.mediaUrl);
  }, 60_000);

  it("the origin stopped (SIGTERM): the teacher's room on another node continues the session", async () => {
    const { api, teacherAccount, studentAccounts } = setup;
    const classId = await teacherAccount.createClass({ categoryId: PROGRAMMING, name: '옮겨가는 강의' });
    const account = studentAccounts[3];
    if (!account) throw new Error('no fourth student');
    await account.enroll(classId);
    const [linkD, linkE] = [await planMedia(), await planMedia()].map((link) => ({
      ...link,
      secret: setup.links[0].secret,
    })) as [MediaLink, MediaLink];
    const nodeD = await startNode(setup, linkD, 'stop-d', 5);
    const teacher = new TicketedTeacher(
      ticketSource(api.baseUrl, classId, teacherAccount.tokens.accessToken),
    );
    const student = new TicketedStudent(ticketSource(api.baseUrl, classId, account.tokens.accessToken));
    clients.push(teacher, student);
    await teacher.enter();
    await student.enter();
    const nodeE = await startNode(setup, linkE, 'stop-e', 5);
    expect([teacher.mediaUrl, student.mediaUrl]).toEqual([linkD.mediaUrl, linkD.mediaUrl]);
    await until(() => student.webcamPackets > 30, 15_000, 'the student gets the webcam');
    const sessions = () => sessionsOf(api, teacherAccount, classId);
    await until(async () => (await sessions()).length === 1, 8_000, 'the session is recorded');
    const [first] = await sessions();

    // A graceful stop, as in a deploy: the node closes its room and says so; both clients go to node E.
    const stopped = performance.now();
    await nodeD.stop();
    await until(
      () => student.webcamBackAfter(stopped) !== null,
      ORIGIN_RECOVERY_MS,
      'the student receives the webcam again',
    );
    console.info(
      `media nodes: origin stopped; the teacher published on the other node after ` +
        `${Math.round((teacher.enteredAt ?? 0) - stopped)} ms, the student received again after ` +
        `${Math.round((student.webcamBackAfter(stopped) ?? 0) - stopped)} ms`,
    );
    expect([teacher.mediaUrl, student.mediaUrl]).toEqual([linkE.mediaUrl, linkE.mediaUrl]);
    // One session, still open, now held on E.
    expect((await sessions()).map((item) => [item.id, item.ended_at])).toEqual([[first?.id, null]]);
    await Promise.all([teacher.close(), student.close()]);
    await until(async () => (await sessions())[0]?.ended_at != null, 8_000, 'the session ended');
    expect((await sessions()).map((item) => item.id)).toEqual([first?.id]);
    // The next test's placement sees nothing of this class, nor a roomy node.
    await nodeE.stop();
  }, 60_000);

  it('an edge with places left killed: its student is told another node at once, not the dead one again', async () => {
    // The origin P has room for one student; the edge Q, then the spare node R, have places to spare.
    const lecture = await originAndEdge(setup, '자리가 남은 강의', 'spare', true);
    const { s2, edge: nodeQ, links } = lecture;
    const [, linkQ, linkR] = links;

    // Q dies with its registry entry fresh and places left: the student's first ticket may still name it,
    // the one asked after Q could not be reached names R (the API server found Q gone and dropped it).
    const killed = performance.now();
    nodeQ.kill('SIGKILL');
    await until(() => s2.webcamBackAfter(killed) !== null, EDGE_RECOVERY_MS, 'the student receives again');
    const after = s2.tickets.filter((ticket) => ticket.at > killed).map((ticket) => ticket.mediaUrl);
    console.info(
      `media nodes: an edge with places left killed; its student received again after ` +
        `${Math.round((s2.webcamBackAfter(killed) ?? 0) - killed)} ms, tickets after the kill: ${after.length}`,
    );
    expect(s2.mediaUrl).toBe(linkR?.mediaUrl);
    expect(after.filter((url) => url === linkQ.mediaUrl).length).toBeLessThanOrEqual(1);
    expect(after.at(-1)).toBe(linkR?.mediaUrl);
    await lecture.close();
  }, 60_000);

  it('an edge frozen (no TCP reset, no answer): its student is back on another node within 5 s', async () => {
    // As above: the origin F has room for one student, the edge G takes the second, H is the spare.
    const lecture = await originAndEdge(setup, '멈춘 노드 강의', 'frozen', true);
    const { s2, edge: nodeG, links } = lecture;
    const linkH = links[2];

    // G's host hangs (or its network is cut): its kernel still accepts TCP connections, nothing answers, no
    // connection is reset. Only the heart-beats can tell: the socket.io ping and the registry's entry.
    const frozen = performance.now();
    nodeG.kill('SIGSTOP');
    try {
      await until(() => s2.webcamBackAfter(frozen) !== null, EDGE_RECOVERY_MS, 'the student receives again');
      const after = s2.tickets.filter((ticket) => ticket.at > frozen).map((ticket) => ticket.mediaUrl);
      console.info(
        `media nodes: an edge frozen; its student lost it after ${Math.round((s2.lostAt ?? 0) - frozen)} ms ` +
          `and received again after ${Math.round((s2.webcamBackAfter(frozen) ?? 0) - frozen)} ms, ` +
          `tickets after the freeze: ${after.length}`,
      );
      expect(s2.mediaUrl).toBe(linkH?.mediaUrl);
      // G's entry was stale before the student noticed: no ticket sent it back to the hung node.
      expect(after).toEqual([linkH?.mediaUrl]);
    } finally {
      nodeG.kill('SIGKILL');
    }
    await lecture.close();
  }, 60_000);
  it('the origin hangs, then wakes: the class goes on on the edge, as one session', async () => {
    const { api, teacherAccount, studentAccounts } = setup;
    // The origin W has room for one student; the edge X takes the second.
    const lecture = await originAndEdge(setup, '깨어난 노드 강의', 'wake', false);
    const { classId, teacher, s1, s2, origin: nodeW, links } = lecture;
    const linkX = links[1];
    const sessions = () => sessionsOf(api, teacherAccount, classId);
    await until(async () => (await sessions()).length === 1, 8_000, 'the session is recorded');
    const [session] = await sessions();

    // W hangs: the teacher and student 1 notice, and go to the edge X, which takes the room over.
    const frozen = performance.now();
    nodeW.kill('SIGSTOP');
    await until(
      () => [s1, s2].every((s) => s.webcamBackAfter(frozen) !== null),
      ORIGIN_RECOVERY_MS,
      'both students receive the webcam again',
    );
    console.info(
      `media nodes: origin hung; the teacher published on the edge after ` +
        `${Math.round((teacher.enteredAt ?? 0) - frozen)} ms; the students received again after ` +
        `${[s1, s2].map((s) => Math.round((s.webcamBackAfter(frozen) ?? 0) - frozen)).join(' and ')} ms`,
    );
    expect([teacher.mediaUrl, s1.mediaUrl, s2.mediaUrl]).toEqual(Array(3).fill(linkX.mediaUrl));

    // W wakes (a paused machine resumed) with its old room and connections: it must not take the class back,
    // nor end its session. Past the teacher's grace period (10 s) its room is gone.
    nodeW.kill('SIGCONT');
    const woke = performance.now();
    await delay(12_000);
    expect([teacher.mediaUrl, s1.mediaUrl, s2.mediaUrl]).toEqual(Array(3).fill(linkX.mediaUrl));
    expect([s1, s2].map((s) => s.lostAt !== null && s.lostAt > woke)).toEqual([false, false]);
    const counts = [s1, s2].map((s) => s.webcamPackets);
    await delay(500);
    expect([s1, s2].map((s, i) => s.webcamPackets > (counts[i] ?? 0))).toEqual([true, true]);
    expect((await sessions()).map((item) => [item.id, item.ended_at])).toEqual([[session?.id, null]]);
    // A new student is placed on X, the class's node now, not on the woken W.
    const [first] = studentAccounts as [ApiClient];
    const ticket = await ticketSource(api.baseUrl, classId, first.tokens.accessToken)();
    expect(ticket.mediaUrl).toBe(linkX.mediaUrl);

    await lecture.closeClients();
    await until(async () => (await sessions())[0]?.ended_at != null, 8_000, 'the session ended');
    expect((await sessions()).map((item) => item.id)).toEqual([session?.id]);
    await lecture.stopNodes();
  }, 90_000);
});

/**
 * A class of the platform's teacher and first two students, live on nodes of its own: the origin (one place:
 * the teacher and student 1), an edge (five places: student 2, receiving the webcam), and with `spare` an idle
 * node of five places started last. Node ids start with `id`.
 */
async function originAndEdge(platform: Platform, name: string, id: string, spare: boolean) {
  const { api, teacherAccount, studentAccounts } = platform;
  const classId = await teacherAccount.createClass({ categoryId: PROGRAMMING, name });
  const [first, second] = studentAccounts as [ApiClient, ApiClient];
  await Promise.all([first.enroll(classId), second.enroll(classId)]);
  const links = (await Promise.all((spare ? [1, 2, 3] : [1, 2]).map(() => planMedia()))).map((link) => ({
    ...link,
    secret: platform.links[0].secret,
  })) as [MediaLink, MediaLink, ...MediaLink[]];
  const origin = await startNode(platform, links[0], `${id}-origin`, 1);
  const teacher = new TicketedTeacher(ticketSource(api.baseUrl, classId, teacherAccount.tokens.accessToken));
  const students = [first, second].map(
    (client) => new TicketedStudent(ticketSource(api.baseUrl, classId, client.tokens.accessToken)),
  ) as [TicketedStudent, TicketedStudent];
  clients.push(teacher, ...students);
  const [s1, s2] = students;
  await teacher.enter();
  await s1.enter();
  const edge = await startNode(platform, links[1], `${id}-edge`, 5);
  await s2.enter();
  const nodes = [origin, edge];
  if (links[2]) nodes.push(await startNode(platform, links[2], `${id}-spare`, 5));
  expect([teacher.mediaUrl, s1.mediaUrl, s2.mediaUrl]).toEqual([
    links[0].mediaUrl,
    links[0].mediaUrl,
    links[1].mediaUrl,
  ]);
  await until(() => s2.webcamPackets > 30, 15_000, 'the edge student gets the webcam');
  const closeClients = () => Promise.all([teacher, s1, s2].map((client) => client.close()));
  const stopNodes = () => Promise.all(nodes.map((node) => node.stop()));
  return {
    classId,
    teacher,
    s1,
    s2,
    links,
    origin,
    edge,
    closeClients,
    stopNodes,
    /** Leaves nothing of the class for the next case's placement, nor a roomy node. */
    close: async () => {
      await closeClients();
      await stopNodes();
    },
  };
}

/** Starts a media node process of the platform, registered in its Redis with `capacity`. */
async function startNode(
  { api, redisUrl, dataDir }: Platform,
  link: MediaLink,
  id: string,
  capacity: number,
): Promise<RunningServer> {
  const media = await startMedia(link, api.baseUrl, {
    REDIS_URL: redisUrl,
    MEDIA_NODE_ID: id,
    MEDIA_CAPACITY: String(capacity),
    MEDIA_WORKERS: '0',
    DATA_DIR: fs.mkdtempSync(path.join(dataDir, `${id}-`)),
    LOG_LEVEL: 'warn',
  });
  cleanups.push(media.stop);
  // The node writes its first registry entry just after it starts listening: placements made before that
  // would not know it (a test starting two edges at once then saw its students placed in either order).
  await until(() => keyExists(redisUrl, `${MEDIA_REGISTRY_PREFIX}${id}`), 5_000, `${id} in the registry`);
  return media;
}

async function lecture(platform: Platform, step: (what: string) => void): Promise<void> {
  const { api, links, classId, teacherAccount, students } = platform;
  const [linkA, linkB, linkC] = links;
  const [s1, s2, s3, s4] = students;
  const node = (link: MediaLink, id: string, capacity: number) => startNode(platform, link, id, capacity);
  {
    // The origin (room for one student) alone first: the teacher is placed there, and student 1.
    const nodeA = await node(linkA, 'node-a', 1);
    const teacher = new TicketedTeacher(
      ticketSource(api.baseUrl, classId, teacherAccount.tokens.accessToken),
    );
    clients.push(teacher);
    await teacher.enter();
    step('teacher publishing');
    expect(teacher.mediaUrl).toBe(linkA.mediaUrl);
    await s1.enter();
    expect(s1.mediaUrl).toBe(linkA.mediaUrl);
    // Edge B (two places) takes the next two; edge C, started then, the last one, with room to spare.
    const nodeB = await node(linkB, 'node-b', 2);
    await s2.enter();
    await s3.enter();
    step('students 1-3 in');
    const nodeC = await node(linkC, 'node-c', 5);
    await s4.enter();
    expect(students.map((s) => s.mediaUrl)).toEqual([
      linkA.mediaUrl,
      linkB.mediaUrl,
      linkB.mediaUrl,
      linkC.mediaUrl,
    ]);
    step('student 4 in');
    await until(() => students.every((s) => s.webcamPackets > 30), 15_000, 'every student gets the webcam');
    step('every student receives');

    // The API server counts every student, the edges' too, once each.
    const openStays = async () => {
      const response = await fetch(`${api.baseUrl}${toPath(ROUTES.attendance, { classId })}`, {
        headers: { authorization: `Bearer ${teacherAccount.tokens.accessToken}` },
      });
      const { data } = (await response.json()) as { data: Attendance };
      return data.rows.map((row) => row.joins.filter((join) => join.left_at === null).length);
    };
    await until(
      async () => (await openStays()).join() === '1,1,1,1',
      8_000,
      'four students attending, one open stay each',
    );

    // Edge B dies mid-lecture: its students fetch new tickets and receive again on C.
    const before = { s1: s1.webcamPackets, s4: s4.webcamPackets };
    step('attendance counted');
    nodeB.kill('SIGKILL');
    const edgeKilled = performance.now();
    await until(
      () => [s2, s3].every((s) => s.webcamBackAfter(edgeKilled) !== null),
      EDGE_RECOVERY_MS,
      "edge B's students receive the webcam again",
    );
    const edgeRecovery = [s2, s3].map((s) => Math.round((s.webcamBackAfter(edgeKilled) ?? 0) - edgeKilled));
    console.info(
      `media nodes: edge B killed; its students received the webcam again after ${edgeRecovery.join(' and ')} ms, on node C`,
    );
    expect([s2.mediaUrl, s3.mediaUrl]).toEqual([linkC.mediaUrl, linkC.mediaUrl]);
    expect(s1.webcamPackets).toBeGreaterThan(before.s1);
    expect(s4.webcamPackets).toBeGreaterThan(before.s4);
    // Still four stays open, one each: the moved students' stays went on on node C.
    await until(
      async () => (await openStays()).join() === '1,1,1,1',
      8_000,
      'the moved students still attend once',
    );

    // The origin dies: the teacher's new ticket sends it to the edge C (once A's entry is stale), which takes
    // the room over; its students stay, student 1 follows a new ticket there.
    step('edge B recovered');
    nodeA.kill('SIGKILL');
    const originKilled = performance.now();
    await until(
      () => students.every((s) => s.webcamBackAfter(originKilled) !== null),
      ORIGIN_RECOVERY_MS,
      'every student receives the webcam of the teacher back',
    );
    const originRecovery = students.map((s) =>
      Math.round((s.webcamBackAfter(originKilled) ?? 0) - originKilled),
    );
    console.info(
      `media nodes: origin A killed; the teacher published again on node ${teacher.mediaUrl === linkC.mediaUrl ? 'C' : '?'} ` +
        `${Math.round((teacher.enteredAt ?? 0) - originKilled)} ms after the kill; students 1-4 received the webcam again after ` +
        `${originRecovery.join(', ')} ms`,
    );
    expect(teacher.mediaUrl).toBe(linkC.mediaUrl);
    expect(students.map((s) => s.mediaUrl)).toEqual(Array(4).fill(linkC.mediaUrl));
    // Students 2-4 kept their connection to C through the takeover, and the webcam keeps coming.
    expect([s2, s3, s4].map((s) => s.lostAt !== null && s.lostAt > originKilled)).toEqual([
      false,
      false,
      false,
    ]);
    const now = students.map((s) => s.webcamPackets);
    await delay(500);
    expect(students.map((s, i) => s.webcamPackets > (now[i] ?? 0))).toEqual([true, true, true, true]);
    // One lecture, one session: the room taken over on C went on with A's, and so did every student's stay.
    const sessions = () => sessionsOf(api, teacherAccount, classId);
    await until(
      async () => (await openStays()).join() === '1,1,1,1',
      8_000,
      'every student attends the one session, one open stay each',
    );
    const [session, ...others] = await sessions();
    expect([session?.ended_at, others.length]).toEqual([null, 0]);
    // The next test's placement sees nothing of this class.
    await Promise.all([teacher, ...students].map((client) => client.close()));
    await nodeC.stop();
    await until(async () => (await sessions())[0]?.ended_at != null, 8_000, 'the session ended');
    expect((await sessions()).map((item) => item.id)).toEqual([session?.id]);
  }
}
