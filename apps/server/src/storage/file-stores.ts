import path from 'node:path';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { LocalFileStore } from '@sea/service-kit/storage/local-file-store';
import { RECORDINGS_AREA } from '@sea/service-kit/storage/recording-objects';
import type { StorageFolders } from '@sea/service-kit/storage/storage-config';

/**
 * Every area of files the platform keeps, each behind the {@link FileStore} port: uploaded images (UPLOAD_DIR),
 * materials (DATA_DIR/files), replays (REPLAYS_DIR) and raw recordings (RECORDINGS_DIR) on the local disk, or
 * the same areas as prefixes (`uploads/`, `files/`, `replays/`, `recordings/`) of one bucket with STORAGE=s3.
 */
export type FileStores = {
  uploads: FileStore;
  materials: FileStore;
  replays: FileStore;
  recordings: FileStore;
};

/** The areas' prefixes in a bucket. */
export const AREAS = {
  uploads: 'uploads',
  materials: 'files',
  replays: 'replays',
  recordings: RECORDINGS_AREA,
} as const satisfies Record<keyof FileStores, string>;

/** The local folder of each area. */
export function localFolders(config: Omit<StorageFolders, 'storage'>): Record<keyof FileStores, string> {
  return {
    uploads: config.uploadDir,
    materials: path.join(config.dataDir, 'files'),
    replays: config.replaysDir,
    recordings: config.recordingsDir,
  };
}

/**
 * The stores of the configured driver. The object store's SDK is imported only with STORAGE=s3, so the
 * default's idle memory does not carry it.
 */
export async function openFileStores(config: StorageFolders): Promise<FileStores & { close(): void }> {
  const { storage } = config;
  if (storage.kind === 'local') {
    const folders = localFolders(config);
    return {
      uploads: new LocalFileStore(folders.uploads),
      materials: new LocalFileStore(folders.materials),
      replays: new LocalFileStore(folders.replays),
      recordings: new LocalFileStore(folders.recordings),
      close: () => undefined,
    };
  }
  const { S3FileStore, s3Client } = await import('@sea/service-kit/storage/s3-file-store');
  const client = s3Client(storage);
  return {
    uploads: new S3FileStore(client, storage.bucket, AREAS.uploads),
    materials: new S3FileStore(client, storage.bucket, AREAS.materials),
    replays: new S3FileStore(client, storage.bucket, AREAS.replays),
    recordings: new S3FileStore(client, storage.bucket, AREAS.recordings),
    close: () => client.destroy(),
  };
}
