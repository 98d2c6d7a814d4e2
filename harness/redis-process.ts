import { spawn } from 'node:child_process';
import net from 'node:net';
import { freePort } from '@sea/service-kit/test/free-port';

export type RedisProcess = { url: string; stop: () => Promise<void> };

/**
 * A private redis-server on a free loopback port, without persistence: the services of one test share it and
 * nothing else does (the registry of media nodes has fixed key names).
 */
export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  const deadline = Date.now() + 10_000;
  while (!(await answers(port))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error('redis-server did not start (is it installed?)');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}

/** Whether something answers PING on the port. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('error', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
  });
}

/** Whether `key` exists in the Redis at `url` (one EXISTS on a connection of its own; false if none answers). */
export function keyExists(url: string, key: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    socket.once('error', () => resolve(false));
    socket.once('connect', () => socket.write(`EXISTS ${key}\r\n`));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith(':1'));
    });
  });
}
