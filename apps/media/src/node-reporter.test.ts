import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { MEDIA_CALLBACK_AUDIENCE } from '@sea/contract/live-ticket';
import type { MediaNodeReport, MediaRevocation, MediaRoom } from '@sea/contract/media-nodes';
import { NodeReporter, type NodeReporterOptions } from './node-reporter.ts';

const SECRET = 's'.repeat(48);
const nothing: MediaRevocation = { classIds: [], sessionKeys: [], students: [] };

/** A stand-in API server: records reports, answers with `answers` in turn (status, revocation), then 200. */
async function apiServer(answers: { status: number; revocation?: MediaRevocation; delayMs?: number }[] = []) {
  const reports: { url?: string; body: MediaNodeReport }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      const next = answers.shift() ?? { status: 200 };
      jwtVerify(token, new TextEncoder().encode(SECRET), { audience: MEDIA_CALLBACK_AUDIENCE })
        .then(async () => {
          reports.push({ url: request.url, body: JSON.parse(body) as MediaNodeReport });
          await new Promise((resolve) => setTimeout(resolve, next.delayMs ?? 0));
          response
            .writeHead(next.status, { 'content-type': 'application/json' })
            .end(JSON.stringify({ status: next.status, data: next.revocation ?? nothing }));
        })
        .catch(() => response.writeHead(401).end())
        .finally(() => (inFlight -= 1));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    reports,
    maxInFlight: () => maxInFlight,
    close: () => new Promise((resolve) => server.close(resolve)),
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  };
}

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup) await step();
  cleanup = [];
});

function reporter(apiUrl: string, overrides: Partial<NodeReporterOptions> = {}) {
  const revoked: MediaRevocation[] = [];
  const lines: string[] = [];
  let rooms: MediaRoom[] = [];
  const client = new NodeReporter({
    apiUrl,
    secret: SECRET,
    nodeId: 'host-a:5001',
    url: 'http://127.0.0.1:5001',
    rooms: () => rooms,
    revoke: (revocation) => revoked.push(revocation),
    retryMs: 20,
    warn: (line) => lines.push(line),
    info: () => {},
    ...overrides,
  });
  cleanup.push(() => client.close());
  return { client, revoked, lines, setRooms: (next: MediaRoom[]) => (rooms = next) };
}

const aRoom: MediaRoom = {
  classId: 3,
  sessionKey: 'key-1',
  startedAt: '2026-05-01T10:00:00.000Z',
  recording: true,
  students: ['u1'],
};

describe('NodeReporter', () => {
  it("PUTs the node's whole state with a signed token and applies the answer's revocations", async () => {
    const revocation = { classIds: [], sessionKeys: [], students: [{ classId: 3, userId: 'u1' }] };
    const api = await apiServer([{ status: 200, revocation }]);
    cleanup.push(api.close);
    const { client, revoked, setRooms } = reporter(api.url, {
      edges: () => [{ classId: 4, students: ['u2'] }],
    });
    setRooms([aRoom]);
    expect(await client.changed()).toBe(true);
    expect(api.reports).toHaveLength(1);
    const [report] = api.reports;
    expect(report?.url).toBe('/internal/media-nodes/host-a%3A5001');
    expect(report?.body).toEqual({
      url: 'http://127.0.0.1:5001',
      boot: expect.any(String),
      bootedAt: expect.any(String),
      seq: 1,
      rooms: [aRoom],
      closed: [],
      edges: [{ classId: 4, students: ['u2'] }],
    });
    expect(revoked).toEqual([revocation]);
  });

  it('sends one report at a time, numbered in order; changes meanwhile get a later report', async () => {
    const api = await apiServer([{ status: 200, delayMs: 100 }]);
    cleanup.push(api.close);
    const { client } = reporter(api.url);
    const answers = await Promise.all([client.changed(), client.changed(), client.changed()]);
    expect(answers).toEqual([true, true, true]);
    expect(api.maxInFlight()).toBe(1);
    // The first report, then one covering both changes made while it was on its way.
    expect(api.reports.map((r) => r.body.seq)).toEqual([1, 2]);
    expect(new Set(api.reports.map((r) => r.body.boot)).size).toBe(1);
  });

  it('reports once, soon after students join or leave, however many changed meanwhile', async () => {
    const api = await apiServer();
    cleanup.push(api.close);
    const { client, setRooms } = reporter(api.url, { studentDelayMs: 100 });
    setRooms([aRoom]);
    client.studentsChanged();
    setRooms([{ ...aRoom, students: ['u1', 'u2'] }]);
    client.studentsChanged();
    client.studentsChanged();
    expect(api.reports).toHaveLength(0);
    const deadline = Date.now() + 5_000;
    while (api.reports.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    expect(api.reports.map((report) => report.body.rooms[0]?.students)).toEqual([['u1', 'u2']]);
  });

  it('repeats a closed room until a report carrying it is answered', async () => {
    const api = await apiServer([{ status: 503 }, { status: 500 }]);
    cleanup.push(api.close);
    const { client } = reporter(api.url);
    const { students: _students, ...rest } = aRoom;
    const closed = { ...rest, endedAt: '2026-05-01T11:00:00.000Z' };
    expect(await client.changed(closed)).toBe(false);
    // Retried by itself after retryMs, until answered.
    const deadline = Date.now() + 5_000;
    while (api.reports.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(api.reports.map((r) => r.body.closed)).toEqual([[closed], [closed], [closed]]);
    await client.changed();
    expect(api.reports.at(-1)?.body.closed).toEqual([]);
  });

  it('says in one line what is wrong: the API server unreachable, or MEDIA_SECRET different', async () => {
    const unreachable = reporter('http://127.0.0.1:9');
    expect(await unreachable.client.changed()).toBe(false);
    expect(await unreachable.client.changed()).toBe(false);
    expect(unreachable.lines).toHaveLength(1);
    expect(unreachable.lines[0]).toMatch(/cannot reach the API server at API_URL=http:\/\/127\.0\.0\.1:9/);

    const api = await apiServer();
    cleanup.push(api.close);
    const wrongSecret = reporter(api.url, { secret: 'w'.repeat(48) });
    expect(await wrongSecret.client.changed()).toBe(false);
    expect(wrongSecret.lines).toEqual([expect.stringMatching(/\(401\): MEDIA_SECRET differs/)]);
  });

  it('flush gives up on an API server that does not answer, within its time', async () => {
    const { client } = reporter('http://127.0.0.1:9');
    const started = Date.now();
    expect(await client.flush(300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
