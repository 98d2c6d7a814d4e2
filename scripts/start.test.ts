import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import type { Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClassItem } from '@sea/contract/classes';
import type { LiveAnswer } from '@sea/contract/live';
import type { LiveTicket } from '@sea/contract/live-ticket';
import { freePort } from '@sea/service-kit/test/free-port';
import { connectLive } from '../apps/media/test/live-socket.ts';
import { createTestDatabase, postgresAvailable } from '../apps/server/test/helper.ts';
import { devLoginOver } from '../apps/server/test/server-process.ts';
import { buildServicesOnce } from '../harness/service-build.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Each service stops itself within 10 s; npm start kills one that does not after 12 s. */
const STOP_LIMIT_MS = 30_000;
/** The demo class of demo teacher 1001, which demo students 2001-2006 are enrolled in. */
const DEMO_CLASS = '처음 만나는 타입스크립트';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});
// PostgreSQL when it is there (a fresh PGlite folder costs a minute of initdb on a busy machine); it also lets
// the test read the records right after a stop.
const postgresUp = await postgresAvailable();

/** The processes whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return parent === pid ? [Number(entry)] : [];
    } catch {
      return []; // gone meanwhile
    }
  });
}

/** The process's command line, its arguments joined by spaces ('' once it is gone). */
function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Whether the process runs (a zombie, waiting for whoever adopted it to reap it, does not). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Platform = {
  start: ChildProcess;
  services: number[];
  output: () => string;
  exit: Promise<number | null>;
};

/** `npm start --no-build` with `env` (the services' bundles built first), once both services answer. */
async function startPlatform(env: NodeJS.ProcessEnv, apiUrl: string, mediaUrl: string): Promise<Platform> {
  buildServicesOnce();
  const start = spawn(process.execPath, ['scripts/start.ts', '--no-build'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  start.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  start.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => start.once('exit', (code) => resolve(code)));
  cleanups.push(() => {
    for (const pid of [start.pid ?? 0, ...childrenOf(start.pid ?? 0)])
      if (alive(pid)) process.kill(pid, 'SIGKILL');
  });
  const answers = async (url: string) => {
    if (start.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
    return fetch(`${url}/health`).then(
      (response) => response.ok,
      () => false,
    );
  };
  await until(() => answers(apiUrl), 240_000, 'the API server');
  await until(() => answers(mediaUrl), 60_000, 'the media service');
  const services = childrenOf(start.pid ?? 0);
  cleanups.push(() => {
    for (const pid of services) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });
  return { start, services, output: () => output, exit };
}

async function api<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return body.data;
}

const connect = (mediaUrl: string, ticket: string): Promise<Socket> =>
  connectLive(mediaUrl, ticket, (socket) => cleanups.push(() => socket.disconnect()));

describe('npm start', () => {
  it('on another PORT: a lecture goes live at once, a stop mid-lecture leaves nothing running or live, a killed media service comes back', async () => {
    const [port, mediaPort] = [await freePort(), await freePort()];
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-start-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    let databaseUrl = '';
    if (postgresUp) {
      const database = await createTestDatabase();
      cleanups.push(database.drop);
      databaseUrl = database.url;
    }
    // Only PORT and MEDIA_PORT: API_URL, PUBLIC_URL and MEDIA_URL are npm start's to derive.
    const env = {
      PORT: String(port),
      MEDIA_PORT: String(mediaPort),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      API_URL: '',
      PUBLIC_URL: '',
      MEDIA_URL: '',
      MEDIA_SECRET: '',
      MEDIA_WORKERS: '0',
      LOG_LEVEL: 'warn',
      // The embedded defaults: no Redis, even where the tests have one. A platform of its own on the shared
      // Redis would be in the same registry of media nodes as the deploy project's topology, which runs at the
      // same time with the same demo class ids: either one's students could be placed on the other's node.
      REDIS_URL: '',
    };
    const apiUrl = `http://127.0.0.1:${port}`;
    const mediaUrl = `http://127.0.0.1:${mediaPort}`;
    const publicUrl = `http://localhost:${port}`;
    const first = await startPlatform(env, apiUrl, mediaUrl);
    expect(first.services).toHaveLength(2);

    const teacher = await devLoginOver(apiUrl, '1001', publicUrl);
    const created = await api<ClassItem[]>(`${apiUrl}/api/classes?target=created`, teacher.accessToken);
    const classId = created.find((item) => item.name === DEMO_CLASS)?.id ?? 0;
    const isLive = async () =>
      (await api<{ active: boolean }>(`${apiUrl}/api/classes/${classId}/isActive`, teacher.accessToken))
        .active;
    // Nothing is live in the demo data: nobody broadcasts.
    expect(await isLive()).toBe(false);

    const ticket = async (token: string) =>
      (await api<LiveTicket>(`${apiUrl}/api/classes/${classId}/live-ticket`, token)).ticket;
    const host = await connect(mediaUrl, await ticket(teacher.accessToken));
    const started = (await host.timeout(10_000).emitWithAck('startRoom', {})) as LiveAnswer<unknown>;
    expect(started, first.output()).toEqual({ data: { producers: [] } });
    // The media service reported to the API server on this PORT before it answered startRoom.
    expect(await isLive()).toBe(true);

    // A student's ticket fetched right after startRoom lets them in; used again, it is refused.
    const student = await devLoginOver(apiUrl, '2001', publicUrl);
    const studentTicket = await ticket(student.accessToken);
    const viewer = await connect(mediaUrl, studentTicket);
    expect(await viewer.timeout(10_000).emitWithAck('joinRoom', {})).toEqual({ data: { producers: [] } });
    await expect(connect(mediaUrl, studentTicket)).rejects.toMatchObject({
      data: { code: 'unauthorized' },
    });

    // A student who withdraws leaves the room within a second (the API server tells the media service).
    const leaving = await devLoginOver(apiUrl, '2002', publicUrl);
    const leaver = await connect(mediaUrl, await ticket(leaving.accessToken));
    expect(await leaver.timeout(10_000).emitWithAck('joinRoom', {})).toEqual({ data: { producers: [] } });
    const gone = new Promise<number>((resolve) => leaver.once('disconnect', () => resolve(Date.now())));
    const withdrawnAt = Date.now();
    const withdrawal = await fetch(`${apiUrl}/api/auth/signup`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${leaving.accessToken}` },
    });
    expect(withdrawal.status).toBe(200);
    expect((await gone) - withdrawnAt).toBeLessThan(1_000);
    expect(viewer.connected).toBe(true);

    // Stop mid-lecture.
    const stoppedAt = Date.now();
    first.start.kill('SIGTERM');
    expect(await first.exit, first.output()).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(STOP_LIMIT_MS);
    expect(first.services.filter(alive)).toEqual([]);
    if (postgresUp) {
      // The media service stopped first and the API server heard it: the records are right at once.
      const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      cleanups.push(() => sql.end({ timeout: 1 }));
      const [row] = await sql<{ is_active: boolean }[]>`select is_active from classes where id = ${classId}`;
      expect(row?.is_active).toBe(false);
      const sessions = await sql<{ ended_at: Date | null }[]>`
          select ended_at from live_sessions where class_id = ${classId}`;
      expect(sessions).toHaveLength(1);
      expect(sessions[0]?.ended_at).not.toBeNull();
    }

    // After a restart the class is not live.
    const second = await startPlatform(env, apiUrl, mediaUrl);
    expect(await isLive()).toBe(false);
    expect(second.services).toHaveLength(2);

    // The media service killed mid-lecture: the class stops being live within 5 s, the API server answers
    // throughout, and npm start brings the media service back by itself.
    const again = await connect(mediaUrl, await ticket(teacher.accessToken));
    expect(await again.timeout(10_000).emitWithAck('startRoom', {})).toEqual({ data: { producers: [] } });
    expect(await isLive()).toBe(true);
    const media = second.services.find((pid) => cmdline(pid).includes('apps/media'));
    if (media === undefined) throw new Error(`no media service among ${second.services.join(', ')}`);
    const health: { at: number; ok: boolean }[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const ok = await fetch(`${apiUrl}/health`, { signal: AbortSignal.timeout(2_000) }).then(
          (response) => response.ok,
          () => false,
        );
        health.push({ at: Date.now(), ok });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const killedAt = Date.now();
    process.kill(media, 'SIGKILL');
    await until(async () => !(await isLive()), 5_000, 'the class to stop being live');
    const notLiveMs = Date.now() - killedAt;
    await until(
      async () =>
        (await fetch(`${mediaUrl}/health`).then(
          (r) => r.ok,
          () => false,
        )) && !alive(media),
      30_000,
      'the media service to come back',
    );
    const backMs = Date.now() - killedAt;
    polling = false;
    await poll;
    console.log(
      `npm start: the class was not live ${notLiveMs} ms after the kill; media back after ${backMs} ms`,
    );
    expect(health.length).toBeGreaterThan(5);
    expect(health.filter((answer) => !answer.ok)).toEqual([]);
    expect(second.output()).toContain('the media service stopped (SIGKILL); starting it again in 1 s');
    const services = childrenOf(second.start.pid ?? 0);
    expect(services).toHaveLength(2);

    // npm start killed outright takes its services with it.
    second.start.kill('SIGKILL');
    await second.exit;
    await until(() => services.every((pid) => !alive(pid)), STOP_LIMIT_MS, 'the orphaned services to stop');
  }, 600_000);
});
