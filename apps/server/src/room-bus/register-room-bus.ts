import type { FastifyInstance } from 'fastify';
import { CHAT_ENDPOINT } from '@sea/contract/chat';
import { originAllowed } from '../plugins/cors.ts';
import { registerWebSocket, type SocketHandler } from '../plugins/websocket.ts';
import { sockJsRoutes } from '../stomp/sockjs-routes.ts';
import { SOCKJS_HEARTBEAT_MS, SockJsSessions } from '../stomp/sockjs-sessions.ts';
import { sockJsWebSocket } from '../stomp/sockjs-websocket.ts';
import { DEFAULT_PARSER_LIMITS } from '../stomp/stomp-parser.ts';
import { StompSession } from '../stomp/stomp-session.ts';
import type { StompTransport } from '../stomp/stomp-session-options.ts';
import type { ChatTuning } from '../tuning.ts';
import { MemoryFanOut } from './memory-fan-out.ts';
import { RedisFanOut } from './redis-fan-out.ts';
import { RedisTokenBuckets } from './redis-token-buckets.ts';
import { RoomBroker } from './room-broker.ts';
import { roomBusMetrics } from './room-bus-metrics.ts';
import type { FanOut, FanOutTarget, RoomAccess, SendLimiter } from './room-ports.ts';
import { TokenBuckets, type TokenBucketOptions } from './token-buckets.ts';

/** Ten messages at once, then two a second: more than anyone types, far less than a script sends. */
export const DEFAULT_SEND_RATE_LIMIT: TokenBucketOptions = { capacity: 10, refillPerSecond: 2 };

const REDIS_START_WAIT_MS = 3_000;
/** SockJS's websocket transport: `/ws/{server}/{session}/websocket`. */
const SOCKJS_WEBSOCKET = new RegExp(`^${CHAT_ENDPOINT}/[^/.]{1,128}/[^/.]{1,128}/websocket$`);

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The room bus (subscriptions, delivery, fan-out) the chat and the classroom register their SEND
     * destinations on. It hears of deleted classes, ended enrolments and withdrawals on app.events, so ended
     * memberships stop receiving at once.
     */
    roomBus: RoomBroker;
    /** The per-user write budget of the room (Redis-shared with several instances): messages, questions, votes. */
    roomLimiter: SendLimiter;
    /** Bytes written to STOMP sockets that their peers have not taken yet: memory held for slow readers. */
    roomQueuedBytes(): number;
  }
}

/**
 * The room bus on its STOMP endpoint: STOMP over WebSocket at `/ws`, and over SockJS at `/ws` too (`/ws/info`,
 * then its websocket or HTTP transports under `/ws/{server}/{session}/`), feeding the same STOMP sessions. With
 * `REDIS_URL` set, room events fan out through Redis to every instance; otherwise in memory. `access` says who
 * may connect and subscribe (the chat's rule of class membership). Modules register on `app.roomBus` after it.
 */
export async function registerRoomBus(
  app: FastifyInstance,
  access: RoomAccess,
  tuning: ChatTuning = {},
): Promise<void> {
  const log = (level: 'info' | 'warn' | 'error', message: string, error?: unknown): void =>
    app.log[level]({ err: error }, message);
  const redisUrl = app.config.redisUrl;
  const channel = tuning.redisChannel ?? 'sea:chat';
  const limit = tuning.rateLimit ?? DEFAULT_SEND_RATE_LIMIT;
  const memoryBuckets = new TokenBuckets(limit);
  const limiter = redisUrl
    ? new RedisTokenBuckets({
        url: redisUrl,
        prefix: `${channel}:rate:`,
        limit,
        fallback: memoryBuckets,
        log,
      })
    : memoryBuckets;
  const redisReady: Promise<void>[] = [];
  if (limiter instanceof RedisTokenBuckets) {
    app.addHook('onClose', () => limiter.close());
    redisReady.push(limiter.ready());
  }
  const redisFanOuts: RedisFanOut[] = [];
  // Every STOMP session's transport (a WebSocket, or a SockJS session over a WebSocket or HTTP).
  const transports = new Set<StompTransport>();
  const meter = roomBusMetrics(app.metrics, {
    connections: () => transports.size,
    subscriptions: () => broker.subscriptionCount,
  });
  const broker = new RoomBroker({
    access,
    log,
    meter,
    membershipCheckMs: tuning.membershipCheckMs,
    fanOut: (target: FanOutTarget): FanOut => {
      if (!redisUrl) return new MemoryFanOut(target);
      const fanOut = new RedisFanOut(target, { url: redisUrl, channel, log });
      redisFanOuts.push(fanOut);
      return fanOut;
    },
  });
  app.decorate('roomBus', broker);
  app.decorate<SendLimiter>('roomLimiter', limiter);
  // Ended memberships stop receiving here and on every other instance.
  app.events.on('classDeleted', ({ classId }) => broker.membershipsEnded({ classId }));
  app.events.on('enrolmentEnded', ({ classId }) => broker.membershipsEnded({ classId }));
  // The withdrawn user's enrolments ended and the classes they taught were deleted: every class is checked.
  app.events.on('userWithdrawn', () => broker.membershipsEnded('all'));
  app.addHook('onClose', () => broker.close());
  // Starting while Redis is down is allowed (messages are stored and reach this instance's subscribers, and
  // the fan-out connects later); the wait only lets a healthy deployment be fully wired before it listens.
  const subscribed = Promise.all([...redisReady, ...redisFanOuts.map((fanOut) => fanOut.ready())]);
  await Promise.race([
    subscribed,
    new Promise((resolve) => setTimeout(resolve, REDIS_START_WAIT_MS).unref()),
  ]);

  const sessionOptions = { ...tuning.session, log, meter };
  app.decorate('roomQueuedBytes', () => {
    let total = 0;
    for (const transport of transports) total += transport.bufferedBytes();
    return total;
  });
  const sessions = new Set<StompSession>();
  const stomp = (transport: StompTransport): SocketHandler => {
    transports.add(transport);
    const session = new StompSession(transport, broker, sessionOptions);
    sessions.add(session);
    return {
      receive: (bytes) => session.receive(bytes),
      closed: () => {
        transports.delete(transport);
        sessions.delete(session);
        session.transportClosed();
      },
    };
  };
  const maxMessageBytes =
    (tuning.session?.parserLimits?.maxFrameBytes ?? DEFAULT_PARSER_LIMITS.maxFrameBytes) * 2;
  const heartbeatMs = tuning.sockJs?.heartbeatMs ?? SOCKJS_HEARTBEAT_MS;
  const sockJsSessions = new SockJsSessions(stomp, tuning.sockJs);
  // A stop drains the sessions before the sockets close: every session hears that it should reconnect (to
  // another instance behind the proxy), then its socket closes. Hooks run in order, so this one comes first.
  app.addHook('preClose', async () => {
    const draining = sessions.size;
    for (const session of [...sessions]) session.drain();
    if (draining > 0) app.log.info({ sessions: draining }, 'chat sessions told to reconnect');
  });
  app.addHook('preClose', () => sockJsSessions.closeAll());
  const { corsOrigins, publicUrl } = app.config;
  registerWebSocket(app, {
    // The plain STOMP endpoint, and SockJS's websocket transport beside it.
    route: (pathname) => {
      if (pathname === CHAT_ENDPOINT) return stomp;
      if (SOCKJS_WEBSOCKET.test(pathname))
        return (link) => sockJsWebSocket(link, { heartbeatMs, opened: stomp });
      return null;
    },
    allowOrigin: (origin, host) => originAllowed(origin, host, { corsOrigins, publicUrl }),
    pingIntervalMs: tuning.pingIntervalMs,
    maxMessageBytes,
  });
  await app.register(sockJsRoutes(sockJsSessions, { corsOrigins, publicUrl, maxMessageBytes }));
}
