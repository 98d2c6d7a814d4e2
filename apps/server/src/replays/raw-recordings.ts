import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { downloadRecording, mirrorRecording } from '@sea/service-kit/storage/recording-objects';
import type { StorageConfig } from '@sea/service-kit/storage/storage-config';
import { rawFolder } from './recording-read.ts';
import { windowsDir } from './replay-files.ts';

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
   * A local folder holding `{mediaKey}/` of each room as recorded so far, for the replay made while the lecture
   * runs: RECORDINGS_DIR itself, or a copy of the store's that each call brings up to date (in the session's
   * windows folder, which goes with the replay).
   */
  live(sessionId: number, mediaKeys: string[]): Promise<string>;
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
    live: async () => recordingsDir,
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
    live: async (sessionId, mediaKeys) => {
      const dir = path.join(windowsDir(workDir, sessionId), 'raw');
      for (const key of mediaKeys) await mirrorRecording(store, key, rawFolder(dir, key), { patches: false });
      return dir;
    },
    fetch: async (sessionId, mediaKeys, endedAt, attempt) => {
      // What an attempt that died left (the next attempt's own goes with it when it ends).
      await removeFetched(workDir, sessionId);
      // The copy the replay made during the lecture read, brought up to date: only the last seconds are fetched.
      const mirrored = path.join(windowsDir(workDir, sessionId), 'raw');
      const live = await fs.stat(mirrored).then(
        () => true,
        () => false,
      );
      const dir = live ? mirrored : path.join(workDir, `${sessionId}${FETCHED}${randomUUID().slice(0, 8)}`);
      // The copy goes with the windows' folder, once the replay is made.
      const release = live ? async () => undefined : () => fs.rm(dir, { recursive: true, force: true });
      try {
        let complete = true;
        for (const key of mediaKeys) {
          const into = rawFolder(dir, key);
          const found = live
            ? await mirrorRecording(store, key, into, { patches: true })
            : await downloadRecording(store, key, into);
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
