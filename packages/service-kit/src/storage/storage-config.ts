import { z } from 'zod';
import { ConfigError, optionalEnv } from '@sea/contract/env';

/** An S3-compatible object store's bucket and how to reach it (STORAGE=s3). */
export type S3Settings = {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Buckets addressed as `endpoint/bucket/key` (most self-hosted stores) rather than `bucket.endpoint/key`. */
  forcePathStyle: boolean;
};

/** Where the platform's files are kept: local folders (the default) or one bucket of an object store. */
export type StorageConfig = { kind: 'local' } | ({ kind: 's3' } & S3Settings);

/** The local folders of the areas (the local driver's stores; on s3, `replaysDir` is the replays' work folder). */
export type StorageFolders = {
  storage: StorageConfig;
  uploadDir: string;
  dataDir: string;
  replaysDir: string;
  recordingsDir: string;
};

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * STORAGE and its S3_* settings, as both services read them (the media node uploads its recordings to the store
 * the API server reads them from): with STORAGE=s3 every setting but the path style is required.
 */
export const storageEnv = {
  STORAGE: optionalEnv.pipe(z.enum(['local', 's3'], 'must be local or s3').default('local')),
  S3_ENDPOINT: optionalEnv.pipe(z.url('must be a URL').optional()),
  S3_REGION: optionalEnv,
  S3_BUCKET: optionalEnv.pipe(
    z.string().regex(BUCKET, 'must be a bucket name (3-63 of a-z, 0-9, . and -)').optional(),
  ),
  S3_ACCESS_KEY_ID: optionalEnv,
  S3_SECRET_ACCESS_KEY: optionalEnv,
  S3_FORCE_PATH_STYLE: optionalEnv.pipe(
    z
      .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'], 'must be true or false')
      .optional()
      .transform((v) => v === undefined || ['true', '1', 'on', 'yes'].includes(v)),
  ),
};

/** The storage setting of an environment parsed with {@link storageEnv}; throws ConfigError naming what is missing. */
export function storageConfig(e: {
  STORAGE: 'local' | 's3';
  S3_ENDPOINT?: string | undefined;
  S3_REGION?: string | undefined;
  S3_BUCKET?: string | undefined;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_FORCE_PATH_STYLE: boolean;
}): StorageConfig {
  if (e.STORAGE === 'local') return { kind: 'local' };
  const { S3_ENDPOINT, S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = e;
  if (
    S3_ENDPOINT === undefined ||
    S3_REGION === undefined ||
    S3_BUCKET === undefined ||
    S3_ACCESS_KEY_ID === undefined ||
    S3_SECRET_ACCESS_KEY === undefined
  ) {
    const required = { S3_ENDPOINT, S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY };
    throw new ConfigError(
      Object.entries(required)
        .filter(([, value]) => value === undefined)
        .map(([name]) => `${name}: required when STORAGE=s3 (the object store that keeps every file)`),
    );
  }
  return {
    kind: 's3',
    endpoint: S3_ENDPOINT.replace(/\/$/, ''),
    region: S3_REGION,
    bucket: S3_BUCKET,
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}
