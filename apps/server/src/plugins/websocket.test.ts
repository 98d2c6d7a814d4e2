import { afterEach, describe, expect, it, vi } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerWebSocket } from './websocket.ts';

let app: FastifyInstance | null = null;

afterEach(async () => {
  await app?.close();
  app = null;
});

async function serve(onMessage: (text: string) => void): Promise<{ url: string; logged: unknown[] }> {
  const server = Fastify({ logger: false });
  app = server;
  const logged: unknown[] = [];
  vi.spyOn(server.log, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
  registerWebSocket(server, {
    route: (pathname) =>
      pathname !== '/ws'
        ? null
        : (link) => ({
            receive: (bytes) => {
              const text = new TextDecoder().decode(bytes);
              onMessage(text);
              link.send(new TextEncoder().encode(`echo ${text}`));
            },
            closed: () => undefined,
          }),
    maxMessageBytes: 1024,
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { url: `ws://127.0.0.1:${address.port}/ws`, logged };
}

function exchange(url: string, text: string): Promise<{ answer: string | null; code: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    let answer: string | null = null;
    socket.onopen = () => socket.send(text);
    socket.onmessage = (event) => {
      answer = String(event.data);
      socket.close();
    };
    socket.onclose = (event) => resolve({ answer, code: event.code });
  });
}

describe('registerWebSocket', () => {
  it('a handler that throws costs its own socket only: logged, dropped, and the server goes on', async () => {
    const { url, logged } = await serve((text) => {
      if (text === 'boom') throw new Error('handler bug');
    });
    const escaped: unknown[] = [];
    const record = (error: unknown): void => void escaped.push(error);
    process.on('uncaughtException', record);
    try {
      expect(await exchange(url, 'boom')).toEqual({ answer: null, code: 1006 });
      expect(await exchange(url, 'hello')).toEqual({ answer: 'echo hello', code: 1005 });
    } finally {
      process.off('uncaughtException', record);
    }
    expect(escaped).toEqual([]);
    expect(logged).toHaveLength(1);
  });
});
