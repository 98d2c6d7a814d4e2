import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEV_LOGIN_IN_PRODUCTION } from '../src/auth/auth-routes.ts';
import { createTestDatabase, postgresAvailable } from './helper.ts';
import { migratedPgliteFolder } from './pglite-template.ts';
import { startServer, stopServer, type ServerProcess } from './server-process.ts';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
const postgresUp = await postgresAvailable();

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** Runs the real entry point until it exits (it must, here), with its output. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: SERVER_DIR,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-guard-'));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('the production guard of the dev login', () => {
  it('NODE_ENV=production without a Kakao key: the server refuses to start and says why', async () => {
    const { code, output } = await runToExit({
      NODE_ENV: 'production',
      DATA_DIR: dataDir(),
      KAKAO_REST_API_KEY: '',
      DEV_LOGIN: '',
    });
    expect(code).toBe(1);
    expect(output).toContain('KAKAO_REST_API_KEY: required when NODE_ENV=production');
    expect(output).toContain('DEV_LOGIN=true');
  });

  it('with DEV_LOGIN=true it starts, and warns loudly in its log', async () => {
    const folder = dataDir();
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      DEV_LOGIN: 'true',
      KAKAO_REST_API_KEY: '',
      DATA_DIR: folder,
      DATABASE_URL: '',
    };
    // A migrated database, from the template: the subject is the guard, not the first start.
    if (postgresUp) {
      const database = await createTestDatabase({ migrated: true });
      cleanups.push(database.drop);
      env.DATABASE_URL = database.url;
    } else await migratedPgliteFolder(folder);
    const server: ServerProcess = await startServer(env);
    cleanups.unshift(async () => void (await stopServer(server)));
    const warning = server
      .output()
      .split('\n')
      .map((line) => (line.startsWith('{') ? (JSON.parse(line) as { level: number; msg: string }) : null))
      .find((entry) => entry?.msg === DEV_LOGIN_IN_PRODUCTION);
    expect(warning?.level).toBe(40);
    const appKey = await fetch(new URL('/api/auth/kakao/app-key', server.url));
    expect(await appKey.json()).toEqual({ appKey: 'dev', provider: 'dev' });
  });
});
