import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TokenPairSchema, type TokenPair } from '@sea/contract/auth';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
const START_TIMEOUT_MS = 120_000;

export type ServerProcess = { url: string; child: ChildProcess; output: () => string };

/**
 * Starts `node src/main.ts` (the real entry point; or `node ...args`, its bundle say) on a free loopback port and
 * waits until it listens.
 */
export function startServer(env: Record<string, string>, args = ['src/main.ts']): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', DEMO_DATA: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], child, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** Kills a server process with `signal` and waits for it to be gone. */
export function stopServer(
  server: ServerProcess,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<number | null> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

/** Logs in dev identity `kakaoId` over real HTTP (authorize, then callback). */
export async function devLoginOver(url: string, kakaoId: string, publicUrl: string): Promise<TokenPair> {
  const authorize = new URL('/api/auth/dev/authorize', url);
  authorize.search = new URLSearchParams({
    redirect_uri: `${publicUrl}/oauth/kakao/callback`,
    state: 's',
    kakao_id: kakaoId,
  }).toString();
  const redirect = await fetch(authorize, { redirect: 'manual' });
  const code = new URL(redirect.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const tokens = await fetch(new URL(`/api/auth/kakao/callback?code=${encodeURIComponent(code)}`, url));
  return TokenPairSchema.parse(await tokens.json());
}

/** A multipart form with one JSON part sent as a browser Blob, and an optional image. */
export function jsonForm(part: string, value: unknown, image?: Buffer): FormData {
  const form = new FormData();
  form.append(part, new Blob([JSON.stringify(value)], { type: 'application/json' }), 'blob');
  if (image)
    form.append('imagefile', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'banner.jpg');
  return form;
}
