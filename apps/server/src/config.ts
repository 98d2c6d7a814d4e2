import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { type StorageConfig, storageConfig, storageEnv } from '@sea/service-kit/storage/storage-config';
import { SERVER_FOLDER } from './server-folder.ts';
import type { ChatTuning, JobTuning } from './tuning.ts';
import { type Limit, NO_WRITE_LIMITS, type WriteLimitName } from './write-limits.ts';
import {
  ConfigError,
  iceServersEnv,
  metricsAllowEnv,
  optionalEnv as optional,
  parseEnv,
  productionEnv,
  secretEnv as secret,
} from '@sea/contract/env';
import type { IceServer } from '@sea/contract/live-ticket';

export { ConfigError };
export type { S3Settings, StorageConfig } from '@sea/service-kit/storage/storage-config';

/** Where the data lives: PGlite (in `dir`, or in memory when `dir` is null) or a PostgreSQL URL. */
export type DatabaseConfig =
  | {
      kind: 'pglite';
      dir: string | null;
      /** In-memory only: start from this data-folder tarball (tests use a migrated template: no initdb). */
      snapshot?: Blob;
    }
  | { kind: 'postgres'; url: string };

/** Everything the server reads from its environment, checked once at start-up. */
export type Config = {
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  database: DatabaseConfig;
  redisUrl: string | null;
  demoData: boolean;
  /**
   * NODE_ENV=production. There a missing Kakao key is a start-up error unless DEV_LOGIN=true asks for the dev
   * login on purpose (anyone can log in as anyone through it), and the server then warns at every start.
   */
  production: boolean;
  /**
   * Whose X-Forwarded-For to believe (Fastify's `trustProxy`): nobody (false: the socket's peer is the
   * caller, so a client cannot pick its own address for the login rate limit), any proxy (true), the nearest
   * `n` hops, or proxies at these addresses/CIDRs.
   */
  trustProxy: boolean | number | string[];
  /**
   * Origins of web front ends served elsewhere that may use the API, the chat and the uploaded images from a
   * browser (CORS_ORIGINS; none by default). The server's own origin never needs to be listed.
   */
  corsOrigins: string[];
  jwtSecret: string;
  kakao: {
    restApiKey: string | null;
    jsKey: string | null;
    clientSecret: string | null;
    authUrl: string;
    apiUrl: string;
  };
  /** Where every file is kept (STORAGE); the folders below are the local driver's, and work folders on s3. */
  storage: StorageConfig;
  uploadDir: string;
  mediaUrl: string;
  /**
   * Where else browsers open live-media signalling (MEDIA_ORIGINS: the other media nodes' public origins; a
   * host may begin with `*.` and a port may be `*`), for the content security policy, which always allows
   * MEDIA_URL's. Every node a ticket can name must be covered, or browsers refuse to connect to it.
   */
  mediaOrigins: string[];
  mediaSecret: string;
  iceServers: IceServer[];
  /** The built web app, served when it exists. */
  webDist: string;
  logLevel: string;
  /** Who besides loopback may read `/metrics` (METRICS_ALLOW: addresses and CIDRs; none by default). */
  metricsAllow: string[];
  /** How long public class reads may be answered from memory (0: never); see plugins/read-cache.ts. */
  readCacheMs: number;
  /** Redis channel that carries read-cache invalidations between server processes (default `sea:read-cache`). */
  readCacheChannel?: string;
  /** Prefix of the rate limits' Redis keys (default `sea:rate-limit:`); tests set their own. */
  rateLimitNamespace?: string;
  /** Per-user write limits; absent in production (WRITE_LIMITS), widened by tests that write a lot. */
  writeLimits?: Partial<Record<WriteLimitName, Limit>>;
  /** Chat limits and intervals; absent in production (defaults), set by tests and benchmarks. */
  chat?: ChatTuning;
  /** Raw recordings as the media service writes them: `{recordingsDir}/{media_key}/`. */
  recordingsDir: string;
  /** Processed replays: `{replaysDir}/{session id}/` (HLS and MP4). */
  replaysDir: string;
  /** The ffmpeg binary to use instead of looking for one (system, then the npm package); null: look. */
  ffmpegPath: string | null;
  /** Background jobs (replays) this process runs at once; 0: none (another process runs them). */
  jobConcurrency: number;
  /** Queue intervals; absent in production (defaults, but REPLAY_STALL_MIN_S/MAX_S), set by tests. */
  jobs?: Partial<JobTuning>;
};

/** An optional whole number of seconds within bounds. */
const seconds = (min: number, max: number) =>
  optional
    .transform((v) => (v === undefined ? undefined : Number(v)))
    .pipe(z.number('must be a number').int().min(min).max(max).optional());
const optionalUrl = optional.pipe(z.url('must be a URL').optional());
const url = (fallback: string) => optional.transform((v) => v ?? fallback).pipe(z.url('must be a URL'));
const flag = (fallback: boolean) =>
  optional.pipe(
    z
      .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'], 'must be true or false')
      .optional()
      .transform((v) => (v === undefined ? fallback : ['true', '1', 'on', 'yes'].includes(v))),
  );

// proxy-addr's names for address ranges, accepted in TRUST_PROXY like addresses and CIDRs.
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const trustProxy = optional.transform((v, ctx): boolean | number | string[] => {
  if (v === undefined || ['false', 'off', 'no'].includes(v)) return false;
  if (['true', 'on', 'yes'].includes(v)) return true;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  const entries = v.split(',').map((entry) => entry.trim());
  if (entries.every(isProxyAddress)) return entries;
  ctx.addIssue({
    code: 'custom',
    message: 'must be true, false, a hop count or a comma-separated list of proxy addresses/CIDRs',
  });
  return z.NEVER;
});

/**
 * An origin as browsers send it in `Origin`: scheme, host and port, no path. http(s) origins are normalised the
 * way browsers serialise them (lower case, no default port); other schemes (an app's web view, such as
 * `capacitor://localhost`) are taken as written, in lower case.
 */
function normaliseOrigin(entry: string): string | null {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]+$/i.test(entry)) return null;
  const lower = entry.toLowerCase();
  if (!/^https?:/.test(lower)) return lower;
  try {
    const url = new URL(lower);
    return url.origin === 'null' ? null : url.origin;
  } catch {
    return null;
  }
}

const corsOrigins = optional.transform((v, ctx): string[] => {
  if (v === undefined) return [];
  const entries = v.split(',').map((entry) => entry.trim());
  const origins = entries.map(normaliseOrigin);
  if (origins.every((origin) => origin !== null)) return [...new Set(origins)];
  ctx.addIssue({
    code: 'custom',
    message:
      'must be a comma-separated list of origins (scheme://host[:port], no path), e.g. https://app.example.com',
  });
  return z.NEVER;
});

/** A content security policy's host source for a media node: scheme://host[:port], `*.` and `:*` allowed. */
const MEDIA_ORIGIN = /^https?:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?$/i;
const mediaOrigins = optional.transform((v, ctx): string[] => {
  if (v === undefined || v.trim() === '') return [];
  const entries = v.split(',').map((entry) => entry.trim().toLowerCase());
  if (entries.every((entry) => MEDIA_ORIGIN.test(entry))) return [...new Set(entries)];
  ctx.addIssue({
    code: 'custom',
    message:
      'must be a comma-separated list of origins (scheme://host[:port], no path; *.example.org and :* allowed), e.g. https://*.media.example.org',
  });
  return z.NEVER;
});

const EnvSchema = z.object({
  HOST: optional.transform((v) => v ?? 'localhost'),
  PORT: optional
    .transform((v) => Number(v ?? 5000))
    .pipe(z.number('must be a number').int().min(0).max(65535)),
  PUBLIC_URL: optionalUrl,
  // Default: the repository's data folder, the same one the media service reads its shared secret from.
  DATA_DIR: optional.transform((v) => v ?? path.join(SERVER_FOLDER, '../../data')),
  DATABASE_URL: optional.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  REDIS_URL: optional.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
  ),
  // Off unless asked for: `npm start` (scripts/start.ts) asks for it; a deployment or test never gets demo
  // teachers anyone can log in as by accident.
  DEMO_DATA: flag(false),
  TRUST_PROXY: trustProxy,
  CORS_ORIGINS: corsOrigins,
  JWT_SECRET: secret,
  NODE_ENV: productionEnv,
  DEV_LOGIN: flag(false),
  // Off only on purpose: seeding many classes from one account, or a browser test that does.
  WRITE_LIMITS: flag(true),
  KAKAO_REST_API_KEY: optional,
  KAKAO_JS_KEY: optional,
  KAKAO_CLIENT_SECRET: optional,
  KAKAO_AUTH_URL: url('https://kauth.kakao.com'),
  KAKAO_API_URL: url('https://kapi.kakao.com'),
  UPLOAD_DIR: optional,
  ...storageEnv,
  MEDIA_URL: url('http://localhost:5001'),
  MEDIA_ORIGINS: mediaOrigins,
  MEDIA_SECRET: secret,
  ICE_SERVERS: iceServersEnv,
  WEB_DIST: optional,
  RECORDINGS_DIR: optional,
  REPLAYS_DIR: optional,
  FFMPEG_PATH: optional,
  JOB_CONCURRENCY: optional
    .transform((v) => Number(v ?? 1))
    .pipe(z.number('must be a number').int().min(0).max(16)),
  // The replay watchdog's bounds (JobTuning.stallMinMs/stallMaxMs), in seconds.
  REPLAY_STALL_MIN_S: seconds(5, 3_600),
  REPLAY_STALL_MAX_S: seconds(5, 86_400),
  READ_CACHE_MS: optional
    .transform((v) => Number(v ?? 1000))
    .pipe(z.number('must be a number').int().min(0).max(60_000)),
  METRICS_ALLOW: metricsAllowEnv,
  LOG_LEVEL: optional.pipe(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
});

/**
 * Reads the configuration from `env`. Secrets that are absent are generated once and kept in DATA_DIR, so a
 * restart (and the media service started on the same DATA_DIR) sees the same ones.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = parseEnv(EnvSchema, env);
  // NODE_ENV read as a flag: `Production` and ` production ` are production too.
  const production = e.NODE_ENV;
  if (production && e.KAKAO_REST_API_KEY === undefined && !e.DEV_LOGIN) {
    throw new ConfigError([
      'KAKAO_REST_API_KEY: required when NODE_ENV=production; without it the dev login lets anyone log in as ' +
        'anyone (set DEV_LOGIN=true to run the dev login on purpose)',
    ]);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const port = e.PORT;
  const storage = storageConfig(e);
  return {
    host: e.HOST,
    port,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dir: path.join(dataDir, 'pglite') },
    redisUrl: e.REDIS_URL ?? null,
    demoData: e.DEMO_DATA,
    production,
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS,
    jwtSecret: e.JWT_SECRET ?? keptSecret(dataDir, 'jwt-secret'),
    kakao: {
      restApiKey: e.KAKAO_REST_API_KEY ?? null,
      jsKey: e.KAKAO_JS_KEY ?? null,
      clientSecret: e.KAKAO_CLIENT_SECRET ?? null,
      authUrl: e.KAKAO_AUTH_URL.replace(/\/$/, ''),
      apiUrl: e.KAKAO_API_URL.replace(/\/$/, ''),
    },
    storage,
    uploadDir: path.resolve(e.UPLOAD_DIR ?? path.join(dataDir, 'uploads')),
    mediaUrl: e.MEDIA_URL.replace(/\/$/, ''),
    mediaOrigins: e.MEDIA_ORIGINS,
    mediaSecret: e.MEDIA_SECRET ?? keptSecret(dataDir, 'media-secret'),
    iceServers: e.ICE_SERVERS,
    webDist: path.resolve(e.WEB_DIST ?? path.join(SERVER_FOLDER, '../web/dist')),
    logLevel: e.LOG_LEVEL,
    metricsAllow: e.METRICS_ALLOW,
    readCacheMs: e.READ_CACHE_MS,
    ...(e.WRITE_LIMITS ? {} : { writeLimits: NO_WRITE_LIMITS }),
    recordingsDir: path.resolve(e.RECORDINGS_DIR ?? path.join(dataDir, 'recordings')),
    replaysDir: path.resolve(e.REPLAYS_DIR ?? path.join(dataDir, 'replays')),
    ffmpegPath: e.FFMPEG_PATH ?? null,
    jobConcurrency: e.JOB_CONCURRENCY,
    ...stallBounds(e.REPLAY_STALL_MIN_S, e.REPLAY_STALL_MAX_S),
  };
}

/** The watchdog's bounds from the environment (seconds), when set; a floor above the ceiling is the ceiling. */
function stallBounds(minS: number | undefined, maxS: number | undefined): Pick<Config, 'jobs'> {
  if (minS === undefined && maxS === undefined) return {};
  const jobs: Partial<JobTuning> = {};
  if (maxS !== undefined) jobs.stallMaxMs = maxS * 1000;
  if (minS !== undefined) jobs.stallMinMs = Math.min(minS, maxS ?? minS) * 1000;
  return { jobs };
}

/** Reads `DATA_DIR/name`, creating it with a random secret first if needed (safe against a racing process). */
export function keptSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    // Written whole to a temporary file, then linked into place: a racing process sees all or nothing.
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(temporary, randomBytes(48).toString('base64url'), { mode: 0o600 });
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }
  return fs.readFileSync(file, 'utf8').trim();
}
