import type { FastifyInstance } from 'fastify';
import { CHAT_ENDPOINT } from '@sea/contract/chat';
import { ROUTES } from '@sea/contract/paths';
import { registerWebSocket, type SocketLink } from '../plugins/websocket.ts';
import { DatabaseChatAccess } from './chat-access.ts';
import { ChatBroker, DEFAULT_CHAT_RATE_LIMIT } from './chat-broker.ts';
import type { FanOut, FanOutTarget } from './chat-ports.ts';
import { chatRoutes } from './chat-routes.ts';
import type { ChatTuning } from './chat-tuning.ts';
import { MemoryFanOut } from './memory-fan-out.ts';
import { DatabaseMessageLog } from './message-log.ts';
import { RedisFanOut } from './redis-fan-out.ts';
import { RedisTokenBuckets } from './redis-token-buckets.ts';
import { DEFAULT_PARSER_LIMITS } from './stomp-parser.ts';
import { StompSession } from './stomp-session.ts';
import { TokenBuckets } from './token-buckets.ts';

const REDIS_START_WAIT_MS = 3_000;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The chat broker (subscriptions, limits, fan-out). The classes and users modules tell it of deleted
     * classes and withdrawals (`classDeleted`, `userWithdrawn`), so ended memberships stop receiving at once.
     */
    chatBroker: ChatBroker;
    /** Bytes written to chat sockets that their peers have not taken yet: memory held for slow readers. */
    chatQueuedBytes(): number;
  }
}

/**
 * The chat: STOMP over WebSocket at `/ws` and the history route. With `REDIS_URL` set, messages fan out
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
  const broker = new ChatBroker({
    access,
    messages,
    limiter,
    log,
    membershipCheckMs: tuning.membershipCheckMs,
    fanOut: (target: FanOutTarget): FanOut => {
      if (!redisUrl) return new MemoryFanOut(target);
      const fanOut = new RedisFanOut(target, { url: redisUrl, channel, log });
      redisFanOuts.push(fanOut);
      return fanOut;
    },
  });
  app.decorate('chatBroker', broker);
  app.addHook('onClose', () => broker.close());
  // Starting while Redis is down is allowed (messages are stored and reach this instance's subscribers, and
  // the fan-out connects later); the wait only lets a healthy deployment be fully wired before it listens.
  const subscribed = Promise.all([...redisReady, ...redisFanOuts.map((fanOut) => fanOut.ready())]);
  await Promise.race([
    subscribed,
    new Promise((resolve) => setTimeout(resolve, REDIS_START_WAIT_MS).unref()),
  ]);

  const sessionOptions = { ...tuning.session, log };
  const links = new Set<SocketLink>();
  app.decorate('chatQueuedBytes', () => {
    let total = 0;
    for (const link of links) total += link.bufferedBytes();
    return total;
  });
  registerWebSocket(app, {
    path: CHAT_ENDPOINT,
    pingIntervalMs: tuning.pingIntervalMs,
    maxMessageBytes: (tuning.session?.parserLimits?.maxFrameBytes ?? DEFAULT_PARSER_LIMITS.maxFrameBytes) * 2,
    onConnection: (link) => {
      links.add(link);
      const session = new StompSession(link, broker, sessionOptions);
      return {
        receive: (bytes) => session.receive(bytes),
        closed: () => {
          links.delete(link);
          session.transportClosed();
        },
      };
    },
  });
  await app.register(chatRoutes(messages));
}
