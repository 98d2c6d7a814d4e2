// A real socket.io server on loopback (the media service's library), so the client meets real refusals.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Server, type ServerOptions, type Socket } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import { LIVE_HEARTBEAT_MS, LIVE_HEARTBEAT_TIMEOUT_MS, LIVE_SOCKET_PATH } from '@sea/contract/live';
import { HttpError } from '../../lib/http-error.ts';
import { LiveRequestError, SignallingClient, type SignallingState } from './signalling-client.ts';
import { LIVE_TEXTS } from './texts.ts';

type Running = { url: string; io: Server; close: () => Promise<void> };
const running: Running[] = [];
const clients: SignallingClient[] = [];
const proxies: (() => Promise<void>)[] = [];

/** A signalling server that admits the ticket 'good' only, and answers what `onConnection` sets up. */
async function startServer(
  onConnection: (socket: Socket) => void = () => {},
  options: Partial<ServerOptions> = {},
): Promise<Running> {
  const server = http.createServer();
  const io = new Server(server, { path: LIVE_SOCKET_PATH, transports: ['websocket'], ...options });
  io.use((socket, next) => {
    const { ticket } = socket.handshake.auth as { ticket?: string };
    if (ticket === 'good') next();
    else
      next(
        Object.assign(new Error('unauthorized'), {
          data: { code: 'unauthorized', message: '입장권이 유효하지 않아요. 다시 입장해 주세요.' },
        }),
      );
  });
  io.on('connection', onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const result: Running = {
    url: `http://127.0.0.1:${port}`,
    io,
    close: () => new Promise<void>((resolve) => io.close(() => resolve())),
  };
  running.push(result);
  return result;
}

function connect(
  url: string,
  getTicket: () => Promise<string>,
  requestTimeoutMs?: number,
  relocate?: (unreachable: string) => Promise<{ url: string; ticket: string }>,
) {
  const client = new SignallingClient({ url, getTicket, requestTimeoutMs, relocate });
  clients.push(client);
  return client;
}

/**
 * A client connected to `url` whose relocations (the URLs it says it could not reach, in order) all send it to
 * `elsewhere`.
 */
async function relocating(
  url: string,
  elsewhere: string,
): Promise<{ client: SignallingClient; relocations: string[] }> {
  const relocations: string[] = [];
  const client = connect(
    url,
    async () => 'good',
    undefined,
    async (unreachable) => {
      relocations.push(unreachable);
      return { url: elsewhere, ticket: 'good' };
    },
  );
  await new Promise<void>((resolve) =>
    client.on('stateChanged', (state) => state === 'connected' && resolve()),
  );
  return { client, relocations };
}

/**
 * A TCP proxy to `target` that can hang as a frozen host does: its kernel still accepts connections, but
 * nothing is passed on or answered, and no connection is reset. `hold(ms)` keeps what the server sends for
 * that long, then passes it on (a network that stalls and recovers).
 */
async function hangingProxy(
  target: string,
): Promise<{ url: string; hang: () => void; hold: (ms: number) => void; accepted: () => number }> {
  const { port: targetPort } = new URL(target);
  let hung = false;
  let accepted = 0;
  let held: { socket: net.Socket; chunk: Buffer }[] | null = null;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((downstream) => {
    accepted += 1;
    sockets.add(downstream);
    if (hung) return;
    const upstream = net.connect(Number(targetPort), '127.0.0.1');
    sockets.add(upstream);
    downstream.on('data', (chunk) => hung || upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (held) held.push({ socket: downstream, chunk });
      else if (!hung) downstream.write(chunk);
    });
    for (const [from, to] of [
      [downstream, upstream],
      [upstream, downstream],
    ] as const) {
      from.on('error', () => {});
      from.on('close', () => hung || to.destroy());
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  proxies.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => proxy.close(resolve));
  });
  const hold = (ms: number) => {
    held = [];
    setTimeout(() => {
      const chunks = held ?? [];
      held = null;
      for (const { socket, chunk } of chunks) socket.write(chunk);
    }, ms);
  };
  return { url: `http://127.0.0.1:${port}`, hang: () => (hung = true), hold, accepted: () => accepted };
}

afterEach(async () => {
  clients.splice(0).forEach((client) => client.close());
  // The proxies first: a server waits for its connections, the proxied ones too.
  await Promise.all(proxies.splice(0).map((close) => close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
});

describe('SignallingClient', () => {
  it('answers data and refusals of the server', async () => {
    const { url } = await startServer((socket) => {
      socket.on('getProducers', (_payload, ack: (answer: unknown) => void) =>
        ack({ data: { producers: [] } }),
      );
      socket.on('startRoom', (_payload, ack: (answer: unknown) => void) =>
        ack({ error: { code: 'forbidden', message: '강사만 할 수 있어요.' } }),
      );
    });
    const client = connect(url, async () => 'good');
    await expect(client.request('getProducers', {})).resolves.toEqual({ producers: [] });
    await expect(client.request('startRoom', {})).rejects.toEqual(
      new LiveRequestError('forbidden', '강사만 할 수 있어요.'),
    );
    expect(client.state).toBe('connected');
  });

  it('a refused ticket fails the waiting request at once with the refusal (not after its timeout)', async () => {
    const { url } = await startServer();
    const client = connect(url, async () => 'forged', 60_000);
    const started = performance.now();
    const refusal = await client.request('startRoom', {}).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(LiveRequestError);
    expect(refusal).toMatchObject({
      code: 'unauthorized',
      message: '입장권이 유효하지 않아요. 다시 입장해 주세요.',
    });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(client.state).toBe('failed');
    // Later requests fail the same way, at once.
    await expect(client.request('getProducers', {})).rejects.toBe(refusal);
  });

  it('when no ticket could be had, requests fail with the ticket’s own error (e.g. 401 after the refresh)', async () => {
    const { url } = await startServer();
    const ticketError = new HttpError({ status: 401 });
    const client = connect(url, () => Promise.reject(ticketError), 60_000);
    await expect(client.request('startRoom', {})).rejects.toBe(ticketError);
    expect(client.state).toBe('failed');
  });

  it('says in Korean when the server does not answer, and when the connection is gone', async () => {
    const { url, io } = await startServer(() => {
      // Requests are never answered.
    });
    const client = connect(url, async () => 'good', 100);
    await expect(client.request('getProducers', {})).rejects.toEqual(
      new LiveRequestError('timeout', LIVE_TEXTS.signalling.timeout),
    );
    const waiting = client.request('getProducers', {});
    io.disconnectSockets(true);
    await expect(waiting).rejects.toEqual(new LiveRequestError('offline', LIVE_TEXTS.signalling.offline));
    expect(client.state).toBe('disconnected');
    await expect(client.request('getProducers', {})).rejects.toMatchObject({ code: 'offline' });
  });

  it('when its node is gone, reconnects to the node a fresh ticket names, within 5 s', async () => {
    const gone = await startServer();
    const other = await startServer();
    const { client, relocations } = await relocating(gone.url, other.url);
    expect(gone.io.engine.clientsCount).toBe(1);
    const reconnected = new Promise<void>((resolve) => client.on('reconnected', () => resolve()));
    // The node dies: no more connections, and the open one drops as a crash drops it (not a server disconnect).
    const since = performance.now();
    gone.io.httpServer.close();
    for (const socket of gone.io.of('/').sockets.values()) socket.conn.close();
    await reconnected;
    expect(performance.now() - since).toBeLessThan(5_000);
    expect(client.state).toBe('connected');
    expect(other.io.engine.clientsCount).toBe(1);
    // It said which node it could not reach (the API server checks that node and leaves it out if gone).
    expect(relocations.length).toBeGreaterThan(0);
    expect(relocations[0]).toBe(gone.url);
  });

  it('when its node hangs (no reset, no answer), asks where to go before the first attempt', async () => {
    // Pings every 200 ms, answered within 200 ms: a hang is noticed after at most 400 ms.
    const beats = { pingInterval: 200, pingTimeout: 200 };
    const hanging = await startServer(() => {}, beats);
    const proxy = await hangingProxy(hanging.url);
    const other = await startServer(() => {}, beats);
    const { client, relocations } = await relocating(proxy.url, other.url);
    const lost = new Promise<number>((resolve) =>
      client.on('stateChanged', (state) => state === 'connecting' && resolve(performance.now())),
    );
    const reconnected = new Promise<number>((resolve) =>
      client.on('reconnected', () => resolve(performance.now())),
    );
    proxy.hang();
    // Back well before an attempt at the hung node would have timed out (2 s).
    const [lostAt, backAt] = await Promise.all([lost, reconnected]);
    expect(backAt - lostAt).toBeLessThan(1_500);
    expect(relocations).toEqual([proxy.url]);
    expect(other.io.engine.clientsCount).toBe(1);
  });

  it('when the fresh ticket is slow, the first attempt waits for it rather than go to the hung node', async () => {
    const beats = { pingInterval: 200, pingTimeout: 200 };
    const hanging = await startServer(() => {}, beats);
    const proxy = await hangingProxy(hanging.url);
    const other = await startServer(() => {}, beats);
    // The ticket takes 800 ms (an API server behind a proxy that first met a dead one): longer than the first
    // reconnection delay (250 ms), shorter than an attempt at the hung node (2 s).
    const relocations: string[] = [];
    const client = connect(
      proxy.url,
      async () => 'good',
      undefined,
      async (unreachable) => {
        relocations.push(unreachable);
        await new Promise((resolve) => setTimeout(resolve, 800));
        return { url: other.url, ticket: 'good' };
      },
    );
    await new Promise<void>((resolve) =>
      client.on('stateChanged', (state) => state === 'connected' && resolve()),
    );
    const lost = new Promise<number>((resolve) =>
      client.on('stateChanged', (state) => state === 'connecting' && resolve(performance.now())),
    );
    const reconnected = new Promise<number>((resolve) =>
      client.on('reconnected', () => resolve(performance.now())),
    );
    const before = proxy.accepted();
    proxy.hang();
    const [lostAt, backAt] = await Promise.all([lost, reconnected]);
    // No attempt reached the hung node; the first went where the ticket said, as soon as it came.
    expect(proxy.accepted()).toBe(before);
    expect(relocations).toEqual([proxy.url]);
    expect(backAt - lostAt).toBeLessThan(1_800);
    expect(other.io.engine.clientsCount).toBe(1);
  });

  // Issue 32 item 1: the banner within 2 s of a silent network (the media service's own heart-beat here).
  it('a silent network reads connecting within 2 s, before the connection times out', async () => {
    const beats = { pingInterval: LIVE_HEARTBEAT_MS, pingTimeout: LIVE_HEARTBEAT_TIMEOUT_MS };
    const proxy = await hangingProxy((await startServer(() => {}, beats)).url);
    const client = connect(proxy.url, async () => 'good');
    await new Promise<void>((resolve) =>
      client.on('stateChanged', (state) => state === 'connected' && resolve()),
    );
    let lost = false;
    client.on('connectionLost', () => (lost = true));
    // Somewhere between two pings.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * LIVE_HEARTBEAT_MS));
    const silentAt = performance.now();
    proxy.hang();
    await new Promise<void>((resolve) =>
      client.on('stateChanged', (state) => state === 'connecting' && resolve()),
    );
    expect(performance.now() - silentAt).toBeLessThan(2_000);
    expect(lost).toBe(false);
  });

  it('a late heart-beat is no silence; a stall reads connecting and back, with no reconnection', async () => {
    const beats = { pingInterval: LIVE_HEARTBEAT_MS, pingTimeout: LIVE_HEARTBEAT_TIMEOUT_MS };
    const proxy = await hangingProxy((await startServer(() => {}, beats)).url);
    const client = connect(proxy.url, async () => 'good');
    await new Promise<void>((resolve) =>
      client.on('stateChanged', (state) => state === 'connected' && resolve()),
    );
    const states: SignallingState[] = [];
    let reconnected = false;
    client.on('stateChanged', (state) => states.push(state));
    client.on('reconnected', () => (reconnected = true));
    // Pings 0.7 s late (a gap of at most 1.2 s): nothing to show.
    proxy.hold(700);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(states).toEqual([]);
    // Nothing for 2 s, then everything that was held: connecting, then connected on the same connection.
    proxy.hold(2_000);
    await new Promise<void>((resolve) =>
      client.on('stateChanged', (state) => state === 'connected' && resolve()),
    );
    expect(states).toEqual(['connecting', 'connected']);
    expect(reconnected).toBe(false);
  });

  it('hears nodeStopped, then comes back on the node a fresh ticket names', async () => {
    const stopping = await startServer();
    const other = await startServer();
    const client = connect(
      stopping.url,
      async () => 'good',
      undefined,
      async () => ({ url: other.url, ticket: 'good' }),
    );
    const events: string[] = [];
    client.on('nodeStopped', () => events.push('nodeStopped'));
    client.on('stateChanged', (state) => events.push(state));
    await new Promise<void>((resolve) =>
      client.on('stateChanged', (state) => state === 'connected' && resolve()),
    );
    const reconnected = new Promise<void>((resolve) => client.on('reconnected', () => resolve()));
    // What the media service does at a stop: out of the registry, the event, then the connection drops.
    stopping.io.httpServer.close();
    for (const socket of stopping.io.of('/').sockets.values()) {
      socket.emit('nodeStopped', {});
      socket.conn.close();
    }
    await reconnected;
    expect(events).toEqual(['connected', 'nodeStopped', 'connecting', 'connected']);
    expect(other.io.engine.clientsCount).toBe(1);
  });

  it('within the restart wait, a connection the server closes (entry refused for now) is made again', async () => {
    let connections = 0;
    const { url } = await startServer((socket) => {
      connections += 1;
      // The stopping node's event; then the restarted node refuses twice (no room yet) and closes.
      if (connections === 1) socket.emit('nodeStopped', {});
      if (connections <= 3) setTimeout(() => socket.disconnect(true), 50);
    });
    let tickets = 0;
    const client = connect(url, async () => {
      tickets += 1;
      return 'good';
    });
    const states: string[] = [];
    client.on('stateChanged', (state) => states.push(state));
    let reconnections = 0;
    const settled = new Promise<void>((resolve) =>
      client.on('reconnected', () => {
        reconnections += 1;
        if (reconnections === 3) resolve();
      }),
    );
    await settled;
    expect(client.state).toBe('connected');
    expect(tickets).toBe(4);
    expect(states).toEqual([
      'connected',
      'connecting',
      'connected',
      'connecting',
      'connected',
      'connecting',
      'connected',
    ]);
  });

  it('past the restart wait, a connection the server closes stays closed', async () => {
    const { url } = await startServer((socket) => {
      socket.emit('nodeStopped', {});
      setTimeout(() => socket.disconnect(true), 100);
    });
    const client = new SignallingClient({ url, getTicket: async () => 'good', restartWaitMs: 20 });
    clients.push(client);
    await new Promise<void>((resolve) =>
      client.on('stateChanged', (state) => state === 'disconnected' && resolve()),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(client.state).toBe('disconnected');
  });
});
