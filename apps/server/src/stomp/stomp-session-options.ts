import { CHAT_HEARTBEAT_MS } from '@sea/contract/chat';
import { NO_STOMP_METER, type StompMeter } from './stomp-ports.ts';
import type { StompParserLimits } from './stomp-parser.ts';

/** The socket under a session, as the WebSocket adapter provides it. */
export interface StompTransport {
  send(bytes: Uint8Array): void;
  /** Bytes handed to `send` that the socket has not written yet. */
  bufferedBytes(): number;
  /** Closes once queued bytes are written (after an ERROR frame, a DISCONNECT). */
  close(): void;
  /** Drops the connection at once (dead or hopelessly slow peer). */
  terminate(): void;
}

export interface StompSessionOptions {
  /** Heart-beat interval offered each way; the client may ask for a slower one. */
  heartbeatMs: number;
  /** A peer is dead after this many of its heart-beat intervals without a byte. */
  heartbeatTolerance: number;
  /** Time allowed between the socket opening and CONNECT. */
  connectTimeoutMs: number;
  /** Frames read but not yet handled; a client that pipelines more is cut off. */
  maxPendingFrames: number;
  /** A subscriber whose socket holds more unsent bytes than this is closed at once. */
  maxBufferedBytes: number;
  /** ...or that holds more than this for longer than `maxSlowMs`. */
  slowBufferedBytes: number;
  maxSlowMs: number;
  parserLimits: Partial<StompParserLimits>;
  log: (level: 'info' | 'warn' | 'error', message: string, error?: unknown) => void;
  /** Counts accepted messages and refused frames. */
  meter: StompMeter;
}

export const DEFAULT_SESSION_OPTIONS: StompSessionOptions = {
  heartbeatMs: CHAT_HEARTBEAT_MS,
  heartbeatTolerance: 2,
  connectTimeoutMs: 10_000,
  maxPendingFrames: 32,
  maxBufferedBytes: 1024 * 1024,
  slowBufferedBytes: 64 * 1024,
  maxSlowMs: 10_000,
  parserLimits: {},
  log: () => undefined,
  meter: NO_STOMP_METER,
};
