import fs from 'node:fs/promises';
import { availableParallelism, hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ConfigError,
  iceServersEnv,
  metricsAllowEnv,
  MIN_SECRET_LENGTH,
  optionalEnv as optional,
  parseEnv,
  secretEnv,
} from '@sea/contract/env';
import type { IceServer } from '@sea/contract/live-ticket';
import { MediaNodeIdSchema } from '@sea/contract/media-nodes';
import { type StorageConfig, storageConfig, storageEnv } from '@sea/service-kit/storage/storage-config';
import { LOG_LEVELS, type LogLevel } from './log.ts';

export { ConfigError };

/** Everything the media service reads from its environment, checked once at start-up. */
export type MediaConfig = {
  host: string;
  port: number;
  apiUrl: string;
  /** Origin allowed to open the signalling socket (the web app). */
  publicUrl: string;
  /** The address clients reach the media ports on (written into ICE candidates). */
  announcedIp: string;
  /** The local address the UDP sockets bind to. */
  listenIp: string;
  portRange: [number, number] | null;
  iceServers: IceServer[];
  dataDir: string;
  /** RECORDINGS_DIR: one folder per recorded session (default `DATA_DIR/recordings`, as the API server). */
  recordingsDir: string;
  /**
   * STORAGE and S3_*, as the API server reads them: with `s3` each recording goes up into the bucket as it is
   * made (RECORDINGS_DIR then only holds what is not up yet).
   */
  storage: StorageConfig;
  /** MEDIA_SECRET, when set in the environment; else read from DATA_DIR by {@link readMediaSecret}. */
  mediaSecret: string | null;
  /** How long a disconnected teacher may take to come back before the room ends. */
  teacherGraceMs: number;
  /** Forwarding worker threads for students' connections (0: all in the main thread). */
  workers: number;
  /** The most students this node takes over all its rooms (MEDIA_CAPACITY, else {@link defaultCapacity}). */
  capacity: number;
  /** MEDIA_NODE_ID, when set; else {@link defaultNodeId} of the port listened on. */
  nodeId: string | null;
  /** MEDIA_INTERNAL_URL (where the API server reaches this node), when set; else {@link defaultInternalUrl}. */
  internalUrl: string | null;
  /** LOG_LEVEL: the logger reads it itself (log.ts); checked here so a wrong one is reported at start. */
  logLevel: LogLevel;
  /** Who besides loopback may read `/metrics` (METRICS_ALLOW: addresses and CIDRs; none by default). */
  metricsAllow: string[];
  /**
   * MEDIA_URL: where browsers (and other nodes pulling a class) open this node's signalling, written into the
   * registry of nodes; else `http://{MEDIA_ANNOUNCED_IP}:{port}`.
   */
  mediaUrl: string | null;
  /** REDIS_URL: with it the node registers itself for placement and may serve classes as an edge. */
  redisUrl: string | null;
};

/** This node's name unless MEDIA_NODE_ID says otherwise: its host and port, the same after every restart. */
export function defaultNodeId(port: number): string {
  return `${hostname()}:${port}`.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 100);
}

/**
 * Where the API server reaches this node unless MEDIA_INTERNAL_URL says otherwise: the address it listens on,
 * loopback when it listens on every address (or on `localhost`).
 */
export function defaultInternalUrl(host: string, port: number): string {
  const address = ['localhost', '0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

/**
 * One forwarding worker per core (the main thread, with signalling and the teachers' connections, is light);
 * none on a single core, where a worker would only add the cost of passing packets between threads.
 */
export function defaultWorkers(): number {
  const cores = availableParallelism();
  return cores > 1 ? cores : 0;
}
/**
 * Students one forwarding thread serves well with all four streams: measured on a 2-core machine, one core
 * forwarded to about 60 students before loss and queueing grew (docs/media.md, "Capacity"), so 40 leaves room
 * for the teacher's connection, signalling and a busy neighbour.
 */
export const STUDENTS_PER_FORWARDING_THREAD = 40;

/** The node's capacity unless MEDIA_CAPACITY says otherwise: 40 students per forwarding thread (at least one). */
export function defaultCapacity(workers: number): number {
  return STUDENTS_PER_FORWARDING_THREAD * Math.max(1, workers);
}
const ip = z.union([z.ipv4(), z.ipv6()], 'must be an IP address');

const EnvSchema = z.object({
  MEDIA_HOST: optional.transform((v) => v ?? 'localhost'),
  MEDIA_PORT: optional.pipe(z.coerce.number<string | undefined>().int().min(0).max(65535).default(5001)),
  API_URL: optional.pipe(z.url().default('http://127.0.0.1:5000')),
  PUBLIC_URL: optional.pipe(z.url().default('http://localhost:5000')),
  MEDIA_ANNOUNCED_IP: optional.pipe(ip.default('127.0.0.1')),
  MEDIA_LISTEN_IP: optional.pipe(ip.optional()),
  MEDIA_PORT_RANGE: optional.transform((v, ctx) => {
    if (v === undefined) return [40000, 40999] as [number, number];
    const match = /^(\d{1,5})-(\d{1,5})$/.exec(v);
    const min = Number(match?.[1]);
    const max = Number(match?.[2]);
    if (!match || min < 1024 || max > 65535 || min >= max) {
      ctx.addIssue({ code: 'custom', message: 'must be MIN-MAX with 1024 <= MIN < MAX <= 65535' });
      return z.NEVER;
    }
    return [min, max] as [number, number];
  }),
  ICE_SERVERS: iceServersEnv,
  DATA_DIR: optional,
  RECORDINGS_DIR: optional,
  ...storageEnv,
  MEDIA_SECRET: secretEnv,
  TEACHER_GRACE_MS: optional.pipe(
    z.coerce.number<string | undefined>().int().min(0).max(600_000).default(10_000),
  ),
  MEDIA_WORKERS: optional.pipe(
    z.coerce.number<string | undefined>().int().min(0).max(64).default(defaultWorkers()),
  ),
  MEDIA_CAPACITY: optional.pipe(z.coerce.number<string | undefined>().int().min(1).max(100_000).optional()),
  MEDIA_NODE_ID: optional.pipe(MediaNodeIdSchema.optional()),
  MEDIA_INTERNAL_URL: optional.pipe(z.url().optional()),
  LOG_LEVEL: optional.pipe(z.enum(LOG_LEVELS).default('info')),
  METRICS_ALLOW: metricsAllowEnv,
  MEDIA_URL: optional.pipe(z.url().optional()),
  REDIS_URL: optional.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
  ),
});

/** Reads the configuration from `env`; throws {@link ConfigError} listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): MediaConfig {
  const e = parseEnv(EnvSchema, env);
  // Unset: the repository's `data` folder, where the API server keeps its secrets when started by `npm start`
  // (the media service may run with another working directory, e.g. as a workspace script).
  const dataDir = e.DATA_DIR
    ? path.resolve(e.DATA_DIR)
    : fileURLToPath(new URL('../../../data', import.meta.url));
  return {
    host: e.MEDIA_HOST,
    port: e.MEDIA_PORT,
    apiUrl: e.API_URL.replace(/\/$/, ''),
    publicUrl: e.PUBLIC_URL.replace(/\/$/, ''),
    announcedIp: e.MEDIA_ANNOUNCED_IP,
    listenIp: e.MEDIA_LISTEN_IP ?? e.MEDIA_ANNOUNCED_IP,
    portRange: e.MEDIA_PORT_RANGE,
    iceServers: e.ICE_SERVERS,
    dataDir,
    recordingsDir: path.resolve(e.RECORDINGS_DIR ?? path.join(dataDir, 'recordings')),
    storage: storageConfig(e),
    mediaSecret: e.MEDIA_SECRET ?? null,
    teacherGraceMs: e.TEACHER_GRACE_MS,
    workers: e.MEDIA_WORKERS,
    capacity: e.MEDIA_CAPACITY ?? defaultCapacity(e.MEDIA_WORKERS),
    nodeId: e.MEDIA_NODE_ID ?? null,
    internalUrl: e.MEDIA_INTERNAL_URL?.replace(/\/$/, '') ?? null,
    logLevel: e.LOG_LEVEL,
    metricsAllow: e.METRICS_ALLOW,
    mediaUrl: e.MEDIA_URL?.replace(/\/$/, '') ?? null,
    redisUrl: e.REDIS_URL ?? null,
  };
}

const SECRET_WAIT_MS = 10_000;
const SECRET_POLL_MS = 250;

/**
 * The shared secret of live tickets: MEDIA_SECRET, or (development) the file `DATA_DIR/media-secret` that the
 * API server creates. The media service never creates it itself (a different secret would refuse every
 * ticket), so when the file is absent it waits briefly for the API server, then fails with a clear message.
 */
export async function readMediaSecret(config: MediaConfig, waitMs = SECRET_WAIT_MS): Promise<string> {
  if (config.mediaSecret) return config.mediaSecret;
  const file = path.join(config.dataDir, 'media-secret');
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const secret = (await fs.readFile(file, 'utf8')).trim();
      if (secret.length >= MIN_SECRET_LENGTH) return secret;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (Date.now() >= deadline) {
      throw new ConfigError([
        `MEDIA_SECRET: not set, and ${file} (written by the API server) did not appear within ${waitMs} ms; ` +
          'start the API server first or set MEDIA_SECRET for both',
      ]);
    }
    await new Promise((resolve) => setTimeout(resolve, SECRET_POLL_MS));
  }
}
