import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo, Socket as TcpSocket } from 'node:net';
import { SignJWT } from 'jose';
import { io as connectClient, type Socket } from 'socket.io-client';
import {
  LIVE_SOCKET_PATH,
  type LiveAnswer,
  type LiveRequestData,
  type LiveRequestName,
  type LiveRequestPayload,
} from '@sea/contract/live';
import { randomUUID } from 'node:crypto';
import { LIVE_TICKET_AUDIENCE, type LiveTicketClaims } from '@sea/contract/live-ticket';
import type { MediaClosedRoom } from '@sea/contract/media-nodes';
import { internalRoutes } from '../src/internal-routes.ts';
import { mediaMetrics } from '../src/media-metrics.ts';
import { MediaServer, type RoomReports } from '../src/media-server.ts';
import type { FindOrigin } from '../src/registry/origin-finder.ts';
import { originPuller } from '../src/relay/origin-pull.ts';
import type { RtcOptions } from '../src/rtc/peer-connection.ts';
import { attachSignalling } from '../src/signalling.ts';
import { createTicketVerifier } from '../src/ticket.ts';

export const TEST_SECRET = 'test-media-secret-which-is-long-enough-0123456789';

/** Media on loopback only, any free port, no ICE servers. */
export const LOOPBACK_RTC: RtcOptions = {
  announcedIp: '127.0.0.1',
  listenIp: '127.0.0.1',
  portRange: null,
  iceServers: [],
};

/** Records the node's room changes instead of reporting them to the API server. */
export class RecordingReports implements RoomReports {
  /** Rooms opened (reports without a closed room). */
  opened = 0;
  readonly closed: MediaClosedRoom[] = [];
  /** How long each report takes to be answered (tests of waiting for it). */
  delayMs = 0;
  /** Times students joined or left a room (each asks for a report soon). */
  studentChanges = 0;
  studentsChanged(): void {
    this.studentChanges += 1;
  }
  changed(closed?: MediaClosedRoom): Promise<boolean> {
    if (closed) this.closed.push(closed);
    else this.opened += 1;
    return new Promise((resolve) => setTimeout(() => resolve(true), this.delayMs));
  }
}

export type Claims = Partial<LiveTicketClaims> & Pick<LiveTicketClaims, 'role'>;

/** Signs a ticket like the API server does. */
export async function signTicket(claims: Claims, options: { audience?: string; secret?: string } = {}) {
  const {
    sub = `user-${claims.role}`,
    jti = randomUUID(),
    ...rest
  } = { classId: 7, nickname: 'nick', ...claims };
  return new SignJWT(rest)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setJti(jti)
    .setAudience(options.audience ?? LIVE_TICKET_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(options.secret ?? TEST_SECRET));
}

/** A running media service on 127.0.0.1 with a socket.io client factory. */
export async function startTestMedia(
  options: {
    teacherGraceMs?: number;
    workers?: number;
    capacity?: number;
    nodeId?: string;
    /** Where an edge room that lost its origin finds the new one (the registry's part in the service). */
    findOrigin?: FindOrigin;
    /** The recordings folder, the test's own (a small disk): kept at the close. */
    recordingsDir?: string;
  } = {},
) {
  const reports = new RecordingReports();
  // Sessions are recorded, as by default, into a folder of their own removed at the close.
  const ownFolder = options.recordingsDir === undefined;
  const recordingsDir = options.recordingsDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sea-media-test-'));
  const server = new MediaServer({
    rtc: LOOPBACK_RTC,
    teacherGraceMs: options.teacherGraceMs ?? 300,
    reports,
    workers: options.workers ?? 0,
    capacity: options.capacity,
    // Every test node can be an edge: given a ticket naming an origin, it pulls the class from there.
    pullOrigin: originPuller({
      secret: TEST_SECRET,
      nodeId: options.nodeId ?? 'test-node',
      rtc: LOOPBACK_RTC,
      findOrigin: options.findOrigin,
      followForMs: options.teacherGraceMs ?? 300,
    }),
    recordingsDir,
  });
  const httpServer = http.createServer(
    internalRoutes({
      secret: TEST_SECRET,
      revoke: (revocation) => server.revoke(revocation),
      metrics: { registry: mediaMetrics(server), allow: [] },
    }),
  );
  const signalling = attachSignalling(httpServer, {
    server,
    verifyTicket: createTicketVerifier(TEST_SECRET),
    publicUrl: 'http://localhost:5000',
  });
  // Every TCP connection, so that `kill` can drop them as a crash would.
  const connections = new Set<TcpSocket>();
  httpServer.on('connection', (socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  const sockets: Socket[] = [];

  /**
   * Opens a client with `ticket` (or none, or a source of fresh ones); resolves once connected, rejects with
   * the refusal. It does not reconnect unless asked to (then as the web client does: at once after a lost
   * connection).
   */
  async function connect(
    ticket: string | undefined | (() => Promise<string>),
    { reconnection = false } = {},
  ): Promise<Socket> {
    const socket = connectClient(url, {
      path: LIVE_SOCKET_PATH,
      transports: ['websocket'],
      // A ticket opens one connection: given a function, every (re)connection gets a fresh one from it.
      auth:
        typeof ticket === 'function'
          ? (send: (auth: object) => void) => void ticket().then((fresh) => send({ ticket: fresh }))
          : ticket === undefined
            ? {}
            : { ticket },
      reconnection,
      reconnectionDelay: 250,
      reconnectionDelayMax: 1_000,
      forceNew: true,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', (error) => reject(error));
    });
    return socket;
  }

  return {
    server,
    reports,
    url,
    recordingsDir,
    connect,
    /** Connects with a freshly signed ticket for `claims`. */
    /** Connects with freshly signed tickets for `claims` (one per connection, as the web client does). */
    connectAs: async (claims: Claims, options?: { reconnection?: boolean }) =>
      connect(() => signTicket(claims), options),
    /**
     * Stops as a crashed node does: the port closes and every connection drops without a word (clients see
     * a lost transport, not a server disconnect), then the media connections end.
     */
    async kill() {
      httpServer.close();
      for (const socket of connections) socket.destroy();
      await server.close();
    },
    async close() {
      for (const socket of sockets) socket.disconnect();
      await signalling.close();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      if (ownFolder) fs.rmSync(recordingsDir, { recursive: true, force: true });
    },
  };
}

/** Sends a request and waits for its answer. */
export function request<N extends LiveRequestName>(
  socket: Socket,
  name: N,
  payload: LiveRequestPayload<N> | Record<string, unknown> = {},
): Promise<LiveAnswer<LiveRequestData<N>>> {
  return socket.timeout(10_000).emitWithAck(name, payload) as Promise<LiveAnswer<LiveRequestData<N>>>;
}

/** The answer's data, or a thrown error naming the refusal. */
export async function ok<N extends LiveRequestName>(
  socket: Socket,
  name: N,
  payload: LiveRequestPayload<N> | Record<string, unknown> = {},
): Promise<LiveRequestData<N>> {
  const answer = await request(socket, name, payload);
  if ('error' in answer) throw new Error(`${name}: ${answer.error.code} ${answer.error.message}`);
  return answer.data;
}

/** Collects every event of one name a socket receives. */
export function collect<T = unknown>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}

/** Resolves when the socket is disconnected, with the reason. */
export function disconnected(socket: Socket): Promise<string> {
  if (socket.disconnected) return Promise.resolve('already');
  return new Promise((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
}

/** Waits until `check` holds (bounded). */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
