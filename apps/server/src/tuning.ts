// Limits and intervals that tests and benchmarks shorten or widen, as plain values: the configuration
// carries them (Config's `chat` and `jobs`) without loading the chat or the job queue. Production uses the
// defaults of the modules that read them.

/**
 * The room bus's limits and intervals (its STOMP endpoint, the chat on it); absent fields keep the defaults
 * (`DEFAULT_SESSION_OPTIONS`, `DEFAULT_SEND_RATE_LIMIT`, SockJS's heartbeat and disconnect delays).
 */
export type ChatTuning = {
  /** The STOMP session's heart-beats, timeouts, back-pressure bounds and frame limits. */
  session?: {
    heartbeatMs?: number;
    heartbeatTolerance?: number;
    connectTimeoutMs?: number;
    maxPendingFrames?: number;
    maxBufferedBytes?: number;
    slowBufferedBytes?: number;
    maxSlowMs?: number;
    parserLimits?: { maxFrameBytes?: number; maxHeaders?: number; maxHeadBytes?: number };
  };
  /** The per-user send budget: the largest burst, and the tokens added per second. */
  rateLimit?: { capacity: number; refillPerSecond: number };
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
  sockJs?: { heartbeatMs?: number; disconnectMs?: number };
};

/** The job queue's intervals. */
export type JobTuning = {
  /** How long a claim holds without renewal: a job whose worker died is taken again this long after. */
  leaseMs: number;
  pollMs: number;
  /** Delay before a retry, times the attempts so far; an environment failure's backoff starts from it. */
  retryDelayMs: number;
  /** The longest backoff of an environment failure (a full disk, ffmpeg missing, a hung encoder). */
  retryMaxMs: number;
  /**
   * The watchdog: a job's ffmpeg that makes no progress for the time it takes to encode a tenth of the
   * recording at its measured speed is killed, that time kept within these bounds.
   */
  stallMinMs: number;
  stallMaxMs: number;
  /** How often a job waiting for disk space looks whether the space has come back. */
  spaceCheckMs: number;
  /** The replay's windows (`replays/replay-windows.ts`; tests make them short): 48 s unless given. */
  replayWindowMs?: number;
  /** The shortest wait between two rounds of the replay made while a lecture runs (`replays/replay-ahead.ts`). */
  replayAheadEveryMs?: number;
};
