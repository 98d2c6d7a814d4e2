import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NotificationItem } from '@sea/contract/notifications';
import { notice } from './test/notification-fixtures.ts';
import { NotificationStream, type NotificationStreamState } from './notification-stream.ts';

afterEach(() => vi.restoreAllMocks());

const item: NotificationItem = notice(1);

/** A fake server: each call answers the next response; a stream body stays open until `end()`. */
function sseBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  const encoder = new TextEncoder();
  return {
    body,
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

async function until(check: () => boolean) {
  for (let n = 0; n < 100 && !check(); n += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

describe('NotificationStream', () => {
  it('sends the token, reads notices split across chunks, skips comments and other events', async () => {
    const server = sseBody();
    const fetch = vi.fn(
      async (_url: RequestInfo | URL, _init?: RequestInit) => new Response(server.body, { status: 200 }),
    );
    const stream = new NotificationStream({ url: '/s', token: () => 'tok', renew: async () => false, fetch });
    const received: NotificationItem[] = [];
    stream.events.on('notification', (notice) => received.push(notice));
    await until(() => stream.state === 'connected');
    expect(fetch.mock.calls[0]?.[1]?.headers).toMatchObject({ authorization: 'Bearer tok' });
    const json = JSON.stringify(item);
    server.send(': ping\n\nevent: other\ndata: {}\n\nevent: notification\ndata: ');
    server.send(`${json.slice(0, 10)}`);
    server.send(`${json.slice(10)}\n\n`);
    await until(() => received.length === 1);
    expect(received).toEqual([item]);
    stream.close();
    stream.close();
    expect(stream.state).toBe('disconnected');
  });

  it('renews the token once after a 401, reconnects after a drop, and fails after too many tries', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const states: NotificationStreamState[] = [];
    let token = 'old';
    const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      const auth = (init?.headers as Record<string, string>).authorization;
      return new Response(null, { status: auth === 'Bearer old' ? 401 : 503 });
    });
    const renew = vi.fn(async () => {
      token = 'new';
      return true;
    });
    const stream = new NotificationStream({
      url: '/s',
      token: () => token,
      renew,
      fetch,
      retryDelaysMs: { first: 1, max: 4 },
      maxRetries: 3,
    });
    stream.events.on('stateChanged', (state) => states.push(state));
    await until(() => stream.state === 'failed');
    expect(renew).toHaveBeenCalledTimes(1);
    // The first try, its retry with the new token, then three reconnections.
    expect(fetch).toHaveBeenCalledTimes(5);
    expect(states.at(-1)).toBe('failed');
    // One line for the outage, not one per attempt (the browser logs each failed request itself).
    expect(warn).toHaveBeenCalledTimes(1);
    stream.close();
  });

  it('stops when logged out', async () => {
    const fetch = vi.fn();
    const stream = new NotificationStream({ url: '/s', token: () => null, renew: async () => false, fetch });
    await until(() => stream.state === 'disconnected');
    expect(fetch).not.toHaveBeenCalled();
  });
});
