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
