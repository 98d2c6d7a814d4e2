import { isMainThread, threadId } from 'node:worker_threads';
import { pino, type Logger } from 'pino';

/** The levels LOG_LEVEL accepts (pino's), from the most to the least severe. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function levelOf(value: string | undefined): LogLevel {
  // config.ts reports a wrong LOG_LEVEL clearly; until then (and in worker threads) a wrong one means info.
  return LOG_LEVELS.find((level) => level === value) ?? 'info';
}

/**
 * The media service's logger: pino, one JSON line per event, as the API server writes them, at LOG_LEVEL
 * (read here, so forwarding worker threads, which inherit the environment, log at the same level). Lines go
 * through process.stdout, not pino's own synchronous destination: a stdout nobody reads must not block the
 * service (serve.ts ignores its errors). Rooms and peers log through children carrying `classId` and
 * `peerId`; worker threads add their `worker` id.
 */
export const log: Logger = pino(
  {
    name: 'media',
    level: levelOf(process.env.LOG_LEVEL),
    base: { pid: process.pid, ...(isMainThread ? {} : { worker: threadId }) },
  },
  process.stdout,
);
