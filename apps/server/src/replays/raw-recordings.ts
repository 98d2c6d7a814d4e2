import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { downloadRecording } from '@sea/service-kit/storage/recording-objects';
import type { StorageConfig } from '@sea/service-kit/storage/storage-config';
import { rawFolder } from './recording-read.ts';

/**
 * How long after a session's end the replay waits for its media node to finish uploading the recording
 * (`complete` in the store): the last seconds go up within a minute of the end unless the store is down. A
 * node that died never finishes: after this the replay is made of what it uploaded.
 */
export const UPLOAD_WAIT_MS = 5 * 60_000;

/** The rooms' raw recordings, readable as local folders for one replay job. */
export type FetchedRecordings = {
  /** The folder that holds `{mediaKey}/` of each room. */
  dir: string;
  /** Removes what was fetched (nothing with the local driver). */
  release(): Promise<void>;
};

/** The recording is still going up: try again after `retryInMs`. */
export class RecordingUploading extends Error {
  readonly retryInMs: number;
  constructor(retryInMs: number) {
    super('the media node is still uploading the recording');
    this.retryInMs = retryInMs;
  }
}

/**
 * Where the raw recordings are, as the replay job and the removals see them: RECORDINGS_DIR, where the media
 * service on the same machine writes them (the local driver), or the object store's recordings, uploaded by
 * whichever media node recorded the session (STORAGE=s3).
 */
export type RawRecordings = {
  /**
   * The rooms' recordings in a local folder, for the job of `sessionId`; throws {@link RecordingUploading}
   * while one is still going up, within {@link UPLOAD_WAIT_MS} of `endedAt`.
   */
  fetch(
    sessionId: number,
    mediaKeys: string[],
    endedAt: Date | null,
    attempt: number,
  ): Promise<FetchedRecordings>;
  /** Removes the rooms' raw recordings (their replay is made and checked, or the recording was dropped). */
  remove(mediaKeys: string[]): Promise<void>;
};

/** The raw recordings of the configured driver (the app's config and its recordings' store). */
export function rawRecordingsOf(
  config: { storage: StorageConfig; recordingsDir: string; replaysDir: string },
  recordings: FileStore,
): RawRecordings {
  if (config.storage.kind === 'local') return localRawRecordings(config.recordingsDir);
  return storedRawRecordings(recordings, config.replaysDir);
}

/** The local driver: the recordings are in RECORDINGS_DIR already. */
export function localRawRecordings(recordingsDir: string): RawRecordings {
  return {
    fetch: async () => ({ dir: recordingsDir, release: async () => undefined }),
    remove: async (mediaKeys) => {
      for (const key of mediaKeys) {
        await fs.rm(rawFolder(recordingsDir, key), { recursive: true, force: true });
      }
    },
  };
}

/** The name of a session's downloaded recordings in the work folder: `{sessionId}.raw-{8 hex}`. */
const FETCHED = '.raw-';

/**
 * STORAGE=s3: each room's recording is downloaded from the store into the replays' work folder
 * (`{sessionId}.raw-*`, removed when the attempt ends), joined from its parts.
 */
export function storedRawRecordings(store: FileStore, workDir: string): RawRecordings {
  return {
    fetch: async (sessionId, mediaKeys, endedAt, attempt) => {
      // What an attempt that died left (the next attempt's own goes with it when it ends).
      await removeFetched(workDir, sessionId);
      const dir = path.join(workDir, `${sessionId}${FETCHED}${randomUUID().slice(0, 8)}`);
      const release = () => fs.rm(dir, { recursive: true, force: true });
      try {
        let complete = true;
        for (const key of mediaKeys) {
          const found = await downloadRecording(store, key, rawFolder(dir, key));
          complete &&= found.complete;
        }
        const waitLeftMs = (endedAt?.getTime() ?? Date.now()) + UPLOAD_WAIT_MS - Date.now();
        if (!complete && waitLeftMs > 0) {
          throw new RecordingUploading(Math.max(1_000, Math.min(5_000 * attempt, waitLeftMs)));
        }
      } catch (error) {
        await release();
        throw error;
      }
      return { dir, release };
    },
    remove: async (mediaKeys) => {
      for (const key of mediaKeys) await store.removeAll(key);
    },
  };
}

async function removeFetched(workDir: string, sessionId: number): Promise<void> {
  const names = await fs.readdir(workDir).catch(() => [] as string[]);
  const prefix = `${sessionId}${FETCHED}`;
  for (const name of names.filter((n) => n.startsWith(prefix))) {
    await fs.rm(path.join(workDir, name), { recursive: true, force: true });
  }
}
