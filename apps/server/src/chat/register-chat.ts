import type { FastifyInstance } from 'fastify';
import { CHAT_ENDPOINT } from '@sea/contract/chat';
import {
  CHAT_DELETE_DESTINATION,
  CHAT_MUTE_DESTINATION,
  CHAT_SLOW_DESTINATION,
  MODERATION_TOPIC_PREFIX,
} from '@sea/contract/classroom';
import { ROUTES } from '@sea/contract/paths';
import { originAllowed } from '../plugins/cors.ts';
import { registerWebSocket, type SocketHandler } from '../plugins/websocket.ts';
import type { ChatTuning } from '../tuning.ts';
import { DatabaseChatAccess } from './chat-access.ts';
import { RoomBroker, DEFAULT_CHAT_RATE_LIMIT } from '../room-bus/room-broker.ts';
import { roomBusMetrics } from '../room-bus/room-bus-metrics.ts';
import type { FanOut, FanOutTarget, SendLimiter } from '../room-bus/room-ports.ts';
import { chatRoutes } from './chat-routes.ts';
import { MemoryFanOut } from '../room-bus/memory-fan-out.ts';
import { DatabaseMessageLog } from './message-log.ts';
import { moderationActions, moderationState } from './moderation-actions.ts';
import { DatabaseModeration } from './moderation-store.ts';
import { RedisFanOut } from '../room-bus/redis-fan-out.ts';
import { RedisTokenBuckets } from '../room-bus/redis-token-buckets.ts';
import { DEFAULT_PARSER_LIMITS } from '../stomp/stomp-parser.ts';
import { sockJsRoutes } from '../stomp/sockjs-routes.ts';
import { SOCKJS_HEARTBEAT_MS, SockJsSessions } from '../stomp/sockjs-sessions.ts';
import { sockJsWebSocket } from '../stomp/sockjs-websocket.ts';
import { StompSession, type StompTransport } from '../stomp/stomp-session.ts';
import { TokenBuckets } from '../room-bus/token-buckets.ts';

const REDIS_START_WAIT_MS = 3_000;
/** SockJS's websocket transport: `/ws/{server}/{session}/websocket`. */
const SOCKJS_WEBSOCKET = new RegExp(`^${CHAT_ENDPOINT}/[^/.]{1,128}/[^/.]{1,128}/websocket$`);

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The chat broker (subscriptions, limits, fan-out). It hears of deleted classes, ended enrolments and
     * withdrawals on app.events (registerChat), so ended memberships stop receiving at once.
     */
    chatBroker: RoomBroker;
    /** Mutes and slow mode of the rooms (the classroom's questions also refuse a muted student). */
    chatModeration: DatabaseModeration;
    /** The per-user write budget of the chat (Redis-shared with several instances); questions and votes use it too. */
    chatLimiter: SendLimiter;
    /** Bytes written to chat sockets that their peers have not taken yet: memory held for slow readers. */
    chatQueuedBytes(): number;
  }
}

/**
 * The chat: STOMP over WebSocket at `/ws`, and over SockJS at `/ws` too (`/ws/info`, then its websocket or HTTP
 * transports under `/ws/{server}/{session}/`), feeding the same STOMP sessions; and the history route. With `REDIS_URL` set, messages fan out
 * through Redis to every instance; otherwise in memory.
 */
export async function registerChat(app: FastifyInstance, tuning: ChatTuning = {}): Promise<void> {
  const log = (level: 'info' | 'warn' | 'error', message: string, error?: unknown): void =>
    app.log[level]({ err: error }, message);
  const access = new DatabaseChatAccess({
    db: app.db,
    verifyAccess: (token) => app.tokens.verifyAccess(token),
    membershipTtlMs: tuning.membershipTtlMs,
  });
  const messages = new DatabaseMessageLog({ db: app.db, imageUrl: (key) => `${ROUTES.uploads}/${key}` });
  const redisUrl = app.config.redisUrl;
  const channel = tuning.redisChannel ?? 'sea:chat';
  const limit = tuning.rateLimit ?? DEFAULT_CHAT_RATE_LIMIT;
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
  const moderation = new DatabaseModeration(app.db);
  const broker = new RoomBroker({
    access,
    messages,
    limiter,
    gate: moderation,
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
  app.decorate('chatBroker', broker);
  // Ended memberships stop receiving here and on every other instance.
  app.events.on('classDeleted', ({ classId }) => broker.classDeleted(classId));
  app.events.on('enrolmentEnded', ({ classId }) => broker.enrolmentEnded(classId));
  app.events.on('userWithdrawn', () => broker.userWithdrawn());
  app.decorate('chatModeration', moderation);
  app.decorate<SendLimiter>('chatLimiter', limiter);
  const moderate = moderationActions({ room: broker, messages, moderation, log });
  broker.handle(CHAT_DELETE_DESTINATION, moderate.delete);
  broker.handle(CHAT_MUTE_DESTINATION, moderate.mute);
  broker.handle(CHAT_SLOW_DESTINATION, moderate.slow);
  broker.greet(MODERATION_TOPIC_PREFIX, moderationState(moderation));
  // A mute or slow mode set on any instance: this one reads the room's moderation again for its next message.
  broker.intercept(MODERATION_TOPIC_PREFIX, (event) => {
    moderation.forget(Number(event.destination.slice(MODERATION_TOPIC_PREFIX.length)));
    broker.deliverLocally(event);
  });
  app.addHook('onClose', () => broker.close());
  // Starting while Redis is down is allowed (messages are stored and reach this instance's subscribers, and
  // the fan-out connects later); the wait only lets a healthy deployment be fully wired before it listens.
  const subscribed = Promise.all([...redisReady, ...redisFanOuts.map((fanOut) => fanOut.ready())]);
  await Promise.race([
    subscribed,
    new Promise((resolve) => setTimeout(resolve, REDIS_START_WAIT_MS).unref()),
  ]);

  const sessionOptions = { ...tuning.session, log, meter };
  app.decorate('chatQueuedBytes', () => {
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
  // A stop drains the chat before the sockets close: every session hears that it should reconnect (to another
  // instance behind the proxy), then its socket closes. Hooks run in order, so this one comes first.
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
  await app.register(chatRoutes(messages));
}
