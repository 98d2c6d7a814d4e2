import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import {
  LIVE_HEARTBEAT_MS,
  LIVE_HEARTBEAT_TIMEOUT_MS,
  LIVE_REQUESTS,
  LIVE_SOCKET_PATH,
  type LiveAnswer,
  type LiveRequestName,
} from '@sea/contract/live';
import type { LiveTicketClaims } from '@sea/contract/live-ticket';
import type { Handler } from './handlers/handler.ts';
import { badRequest, LiveError } from './live-error.ts';
import { LazyModule } from './lazy-module.ts';
import { log } from './log.ts';
import type { MediaServer } from './media-server.ts';
import { Session } from './session.ts';
import type { TicketVerifier } from './ticket.ts';
import { withinDeadline } from './within-deadline.ts';

export type SignallingOptions = {
  server: MediaServer;
  verifyTicket: TicketVerifier;
  /** Origin allowed to connect (the web app). */
  publicUrl: string;
  /** The longest a request waits for its handler before it is answered with an error (tests shorten it). */
  requestDeadlineMs?: number;
};

type SocketData = { claims: LiveTicketClaims };

/**
 * A request not handled within this is answered with an error: well inside the web client's 15 s, and well
 * above the slowest real handler (an SDP answer waits at most 2 s for STUN/TURN and 5 s for ICE gathering).
 */
export const REQUEST_DEADLINE_MS = 10_000;

/** At a stop, how long the peers' connections may take to drop after hearing `nodeStopped`. */
const STOP_FLUSH_MS = 1_000;

const REQUEST_NAMES = Object.keys(LIVE_REQUESTS) as LiveRequestName[];

/**
 * The socket.io adapter (the only file that imports socket.io): path `/server`, WebSocket transport only,
 * the live ticket checked in the handshake (`auth: { ticket }`; refused with `connect_error` whose `data` is
 * `{ code, message }`), then each request of the catalogue validated, dispatched to its handler and answered
 * `{ data }` or `{ error }`. A refused entry is answered, then the socket is closed.
 */
export function attachSignalling(
  httpServer: HttpServer,
  options: SignallingOptions,
): { close(): Promise<void> } {
  const io = new Server<Record<string, never>, Record<string, never>, Record<string, never>, SocketData>(
    httpServer,
    {
      path: LIVE_SOCKET_PATH,
      transports: ['websocket'],
      serveClient: false,
      cors: { origin: options.publicUrl, credentials: true },
      maxHttpBufferSize: 256 * 1024,
      // A ping every 0.5 s, answered within 2.5 s: a connection whose network is gone is dropped within 3 s
      // on both sides (the client expects a ping every pingInterval + pingTimeout), so a dropped class
      // recovers soon after the network returns instead of waiting on TCP's retransmission back-off, and a
      // client of a node that hangs asks for a fresh ticket 2.5-3 s after the last ping, when the node's
      // registry entry is stale already (MEDIA_REGISTRY_STALE_MS). The web client shows the room as
      // reconnecting after 1.5 s without a ping, well before that (signalling-client.ts).
      pingInterval: LIVE_HEARTBEAT_MS,
      pingTimeout: LIVE_HEARTBEAT_TIMEOUT_MS,
    },
  );

  io.use((socket, next) => {
    const auth: unknown = socket.handshake.auth;
    const ticket =
      typeof auth === 'object' && auth !== null ? (auth as { ticket?: unknown }).ticket : undefined;
    options.verifyTicket(ticket).then(
      (claims) => {
        socket.data.claims = claims;
        next();
      },
      (error: unknown) => {
        const refusal =
          error instanceof LiveError ? error : new LiveError('unauthorized', '입장할 수 없어요.');
        next(
          Object.assign(new Error(refusal.code), { data: { code: refusal.code, message: refusal.message } }),
        );
      },
    );
  });

  const deadlineMs = options.requestDeadlineMs ?? REQUEST_DEADLINE_MS;
  // The requests' handlers with the rooms' code they use, loaded with the node's first connection.
  const handlers = new LazyModule(async () => {
    const [module] = await Promise.all([
      import('./handlers/request-handlers.ts'),
      options.server.loadRooms(),
    ]);
    return module.REQUEST_HANDLERS;
  });
  io.on('connection', (socket) => onConnection(socket, options.server, handlers, deadlineMs));

  return {
    close: async () => {
      // No new connections: a client told to reconnect goes to another node, or waits for this one to be back.
      httpServer.close();
      // Every peer hears `nodeStopped` and its connection drops; the last packets leave before the engine
      // closes what is left (sockets that entered no room: their clients reconnect as after an outage).
      const rooms = options.server.close();
      const deadline = Date.now() + STOP_FLUSH_MS;
      while (io.engine.clientsCount > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      // Not waiting for the HTTP server's last connection: one a proxy or a peer keeps half open must not hold
      // the stop (the process ends with it).
      io.close();
      await rooms;
    },
  };
}

type Handlers = LazyModule<{ [N in LiveRequestName]: Handler<N> }>;

function onConnection(socket: Socket, server: MediaServer, handlers: Handlers, deadlineMs: number): void {
  // Loaded with a node's first connection (a failure answers each request, see `answer`).
  handlers.load().catch(() => undefined);
  const session = new Session(
    (socket.data as SocketData).claims,
    server,
    (event, payload) => socket.emit(event, payload),
    {
      disconnect: () => socket.disconnect(true),
      // Closing the underlying connection, not the namespace: the client sees a lost transport, reconnects at
      // once with a fresh ticket and enters again (a server disconnect would make it stop).
      reconnect: () => socket.conn.close(),
    },
  );
  for (const name of REQUEST_NAMES) {
    socket.on(name, (payload: unknown, ack: unknown) => {
      if (typeof ack !== 'function') return; // nobody to answer: a request must carry an acknowledgement
      void answer(session, handlers, name, payload, deadlineMs).then(({ reply, fatal }) => {
        (ack as (reply: LiveAnswer<unknown>) => void)(reply);
        // The answer is queued before the close, so the client reads why it was refused.
        if (fatal) session.disconnect();
      });
    });
  }
  socket.on('disconnect', (reason) => session.end(reason === 'client namespace disconnect'));
}

/**
 * Validates and handles one request; never throws, and settles within `deadlineMs` whatever the handler does.
 * `fatal`: the connection must close after the answer.
 */
async function answer(
  session: Session,
  handlers: Handlers,
  name: LiveRequestName,
  payload: unknown,
  deadlineMs: number,
): Promise<{ reply: LiveAnswer<unknown>; fatal: boolean }> {
  const parsed = LIVE_REQUESTS[name].payload.safeParse(payload ?? {});
  try {
    if (!parsed.success) throw badRequest(`잘못된 요청이에요: ${parsed.error.issues[0]?.message ?? name}`);
    // Loaded (the usual case): no await, so the handler starts in the order the requests came.
    const table = handlers.loaded ?? (await handlers.load());
    const handler = table[name] as Handler<LiveRequestName>;
    // Run synchronously up to the handler's first await; a throw becomes a rejection.
    const work = (async () => handler(session, parsed.data as never))();
    const data = await withinDeadline(work, deadlineMs, () => {
      requestLog(session).warn({ request: name, deadlineMs }, 'request not handled in time');
      return new LiveError('internal', '미디어 서버가 제때 답하지 못했어요. 잠시 후 다시 시도해 주세요.');
    });
    return { reply: { data }, fatal: false };
  } catch (error) {
    if (error instanceof LiveError) {
      return { reply: { error: { code: error.code, message: error.message } }, fatal: error.fatal };
    }
    requestLog(session).error({ err: error, request: name }, 'request failed');
    const message = '미디어 서버에 문제가 생겼어요. 잠시 후 다시 시도해 주세요.';
    return { reply: { error: { code: 'internal', message } }, fatal: false };
  }
}

/** Where a request's problems are logged: its peer's logger once it entered a room, else its ticket's ids. */
function requestLog(session: Session) {
  const { claims } = session;
  return session.peer?.log ?? log.child({ classId: claims.classId, userId: claims.sub, role: claims.role });
}
