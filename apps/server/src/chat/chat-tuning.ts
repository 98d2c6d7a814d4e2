import type { StompSessionOptions } from './stomp-session.ts';
import type { SockJsTimings } from './sockjs-sessions.ts';
import type { TokenBucketOptions } from './token-buckets.ts';

/**
 * Chat limits and intervals that tests and benchmarks shorten or widen; production uses the defaults of
 * `StompSessionOptions`, `DEFAULT_CHAT_RATE_LIMIT` and the fields below.
 */
export interface ChatTuning {
  session?: Partial<Omit<StompSessionOptions, 'log'>>;
  rateLimit?: TokenBucketOptions;
  /**
   * The Redis pub/sub channel, also the prefix of the rate-limit keys: instances that share it share their
   * chat and their users' send limits. Default `sea:chat`.
   */
  redisChannel?: string;
  membershipTtlMs?: number;
  /** How often every subscription's membership is read again (the backstop of ended memberships). */
  membershipCheckMs?: number;
  /** WebSocket ping interval (dead peers without STOMP heart-beats). */
  pingIntervalMs?: number;
  /** SockJS heartbeat frames and how long an HTTP session waits for its client's next request. */
  sockJs?: SockJsTimings;
}
