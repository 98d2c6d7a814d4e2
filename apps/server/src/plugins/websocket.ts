import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';

const DEFAULT_PING_INTERVAL_MS = 30_000;

/** A WebSocket as the rest of the server sees it: bytes in, bytes out, no `ws` types. */
export interface SocketLink {
  /** Sends a text message. */
  send(bytes: Uint8Array): void;
  bufferedBytes(): number;
  close(): void;
  terminate(): void;
}

/** What a connection handler gives back: where incoming bytes go, and whom to tell when the socket closed. */
export interface SocketHandler {
  receive(bytes: Uint8Array): void;
  closed(): void;
}

/** How a connection on one path is served; null for a path without a WebSocket endpoint. */
export type WebSocketRoute = ((link: SocketLink) => SocketHandler) | null;

export interface WebSocketOptions {
  /** Which paths take upgrades, and how each connection is served. */
  route: (pathname: string) => WebSocketRoute;
  /**
   * Whether a browser page of `origin` may connect (`host`: the request's Host header). WebSockets are not
   * subject to CORS, so the server refuses other pages itself (403). Absent: every origin.
   */
  allowOrigin?: (origin: string | undefined, host: string | undefined) => boolean;
  /**
   * WebSocket ping interval. A socket that has not answered the previous ping is dropped: this finds dead
   * peers even when the protocol above has no keep-alive of its own (a STOMP client without heart-beats).
   */
  pingIntervalMs?: number;
  /** Largest WebSocket message accepted; a bigger one closes the socket (code 1009). */
  maxMessageBytes: number;
}

/**
 * Serves WebSocket connections on the paths `route` names, on the app's HTTP server. The only file that imports
 * `ws`, so the chat stays testable with plain byte streams. Open sockets are closed when the app closes.
 */
export function registerWebSocket(app: FastifyInstance, options: WebSocketOptions): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const serve = options.route((request.url ?? '').split('?')[0] ?? '');
    if (serve === null) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    if (options.allowOrigin && !options.allowOrigin(request.headers.origin, request.headers.host)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      wss.emit('connection', ws, request);
      accept(ws, serve, (error) => app.log.error({ err: error }, 'websocket handler failed; socket dropped'));
    });
  };
  app.server.on('upgrade', onUpgrade);
  const alive = new WeakSet<WebSocket>();
  wss.on('connection', (ws: WebSocket) => {
    alive.add(ws);
    ws.on('pong', () => alive.add(ws));
  });
  const pinger = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
    }
  }, options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS);
  pinger.unref();
  app.addHook('preClose', async () => {
    clearInterval(pinger);
    app.server.off('upgrade', onUpgrade);
    for (const ws of wss.clients) ws.close(1001, 'server shutting down');
    // Give well-behaved clients a moment for the closing handshake; the HTTP server cannot close before
    // every upgraded socket is gone.
    if (wss.clients.size > 0) await new Promise((resolve) => setTimeout(resolve, 200));
    for (const ws of wss.clients) ws.terminate();
    wss.close();
  });
}

function accept(
  ws: WebSocket,
  serve: (link: SocketLink) => SocketHandler,
  logFailure: (error: unknown) => void,
): void {
  // Listeners of a socket run outside any request: an exception there would end the process, so a failing
  // handler costs its own socket only.
  const contained = (action: () => void): void => {
    try {
      action();
    } catch (error) {
      logFailure(error);
      ws.terminate();
    }
  };
  let handler: SocketHandler | null = null;
  contained(() => {
    handler = serve({
      send: (bytes) => ws.send(bytes, { binary: false }),
      bufferedBytes: () => ws.bufferedAmount,
      close: () => ws.close(1000),
      terminate: () => ws.terminate(),
    });
  });
  ws.on('message', (data: RawData) => contained(() => handler?.receive(toBytes(data))));
  ws.on('close', () => contained(() => handler?.closed()));
  // A protocol error of the socket (bad framing, oversized message) ends it; `close` follows and cleans up.
  ws.on('error', () => ws.terminate());
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}
