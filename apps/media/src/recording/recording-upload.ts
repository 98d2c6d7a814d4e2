import { open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { RECORDING_MANIFEST } from '@sea/contract/recording';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import {
  completeKey,
  encodePatches,
  partKey,
  partsEnd,
  patchesKey,
  storedRecording,
  type StoredPatch,
} from '@sea/service-kit/storage/recording-objects';
import { log } from '../log.ts';
import { recordingCounts } from './recording-counts.ts';

/**
 * How often the bytes written since the last round go up: the most of a lecture a node that dies loses from
 * the store (its disk keeps them), and a few seconds of every stream per object.
 */
export const UPLOAD_INTERVAL_MS = 5_000;
/** The longest the end of a session waits for its last bytes to go up (the store may be down). */
export const UPLOAD_END_WAIT_MS = 60_000;
const END_RETRY_MS = 1_000;
/** The most bytes one object takes: a round after a long outage goes up in several. */
const PART_MAX_BYTES = 8 * 1024 * 1024;

/** The uploads of this process not closed yet (their bytes not in the store yet are on `/metrics`). */
export const openUploads = new Set<RecordingUpload>();

type Upload = {
  /** Bytes on the node's disk, safe to read (below it nothing changes but for the patches). */
  written: number;
  uploaded: number;
  /** The file is complete with these patches (not for the manifest, which grows to the end). */
  patches: StoredPatch[] | null;
};

export type RecordingUploadOptions = {
  store: FileStore;
  sessionKey: string;
  /** The session's folder on this node's disk, where its files are written first. */
  dir: string;
  /** Rounds while the lecture runs: none for a recording left by a node that died (only its close uploads). */
  rounds: boolean;
};

/**
 * Uploads a session's recording into the object store while the lecture runs (STORAGE=s3; the layout is in
 * `recording-objects.ts`): every few seconds, the bytes each file gained on the node's disk since the last
 * round, media files before the manifest, so a manifest line in the store never names a file whose beginning is
 * not there. A store that is down costs nothing but time: the disk holds the bytes, and the next round takes
 * them. At the end the last bytes, the patches and `complete` go up, and the node's copy is removed.
 */
export class RecordingUpload {
  private readonly store: FileStore;
  private readonly sessionKey: string;
  private readonly dir: string;
  private readonly files = new Map<string, Upload>();
  private readonly timer: NodeJS.Timeout | null;
  private running: Promise<boolean> = Promise.resolve(true);
  private failing = false;

  constructor(options: RecordingUploadOptions) {
    this.store = options.store;
    this.sessionKey = options.sessionKey;
    this.dir = options.dir;
    this.timer = options.rounds ? setInterval(() => void this.upload(), UPLOAD_INTERVAL_MS) : null;
    this.timer?.unref();
    openUploads.add(this);
  }

  /** The file holds `size` bytes on disk. */
  written(name: string, size: number): void {
    this.file(name).written = size;
  }

  /** The file is complete on disk, with these writes at earlier positions. */
  ended(name: string, patches: StoredPatch[]): void {
    this.file(name).patches = patches;
  }

  /**
   * A file of a session this node recorded before it died: `uploaded` of its bytes are in the store already,
   * `size` on disk (the rest goes up with the next round).
   */
  left(name: string, uploaded: number, size: number): void {
    const file = this.file(name);
    file.uploaded = Math.min(uploaded, size);
    file.written = size;
  }

  /** Bytes written on disk and not in the store yet (tests, metrics). */
  get pendingBytes(): number {
    let bytes = 0;
    for (const file of this.files.values()) bytes += file.written - file.uploaded;
    return bytes;
  }

  /** One round (after the one running): true when everything written so far is in the store. Never rejects. */
  upload(): Promise<boolean> {
    this.running = this.running.then(() => this.round());
    return this.running;
  }

  /**
   * Uploads the rest, within {@link UPLOAD_END_WAIT_MS}, then marks the recording complete and removes the
   * node's copy; what could not go up stays on the node's disk (and the replay is made of what did).
   */
  async close(): Promise<void> {
    try {
      await this.finish();
    } finally {
      openUploads.delete(this);
    }
  }

  private async finish(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const deadline = Date.now() + UPLOAD_END_WAIT_MS;
    let done = await this.upload();
    while (!done && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, END_RETRY_MS));
      done = await this.upload();
    }
    const where = { sessionKey: this.sessionKey, dir: this.dir };
    if (!done) {
      log.error({ ...where, pendingBytes: this.pendingBytes }, 'recording not fully uploaded: kept on disk');
      return;
    }
    try {
      await this.store.putBytes(completeKey(this.sessionKey), Buffer.alloc(0));
    } catch (error) {
      log.error({ ...where, err: error }, 'recording uploaded, but not marked complete: kept on disk');
      return;
    }
    await rm(this.dir, { recursive: true, force: true });
  }

  private file(name: string): Upload {
    let file = this.files.get(name);
    if (!file) {
      file = { written: 0, uploaded: 0, patches: null };
      this.files.set(name, file);
    }
    return file;
  }

  private async round(): Promise<boolean> {
    // The manifest only up to where it was before the media files go up: each of its lines was written after
    // the beginning of the file it names.
    const manifestWritten = this.files.get(RECORDING_MANIFEST)?.written ?? 0;
    try {
      for (const [name, file] of this.files) {
        if (name !== RECORDING_MANIFEST) await this.uploadFile(name, file, file.written);
      }
      const manifest = this.files.get(RECORDING_MANIFEST);
      if (manifest) await this.uploadFile(RECORDING_MANIFEST, manifest, manifestWritten);
    } catch (error) {
      recordingCounts.uploadFailures += 1;
      if (!this.failing) {
        log.warn({ sessionKey: this.sessionKey, err: error }, 'recording upload failed: retried');
        this.failing = true;
      }
      return false;
    }
    if (this.failing) log.info({ sessionKey: this.sessionKey }, 'recording upload goes on');
    this.failing = false;
    return this.pendingBytes === 0 && manifestWritten === (this.files.get(RECORDING_MANIFEST)?.written ?? 0);
  }

  private async uploadFile(name: string, file: Upload, until: number): Promise<void> {
    if (file.uploaded < until) {
      const handle = await open(path.join(this.dir, name), 'r');
      try {
        while (file.uploaded < until) {
          const length = Math.min(until - file.uploaded, PART_MAX_BYTES);
          const bytes = Buffer.alloc(length);
          const { bytesRead } = await handle.read(bytes, 0, length, file.uploaded);
          if (bytesRead < length) throw new Error(`${name}: ${length - bytesRead} written bytes missing`);
          await this.store.putBytes(partKey(this.sessionKey, name, file.uploaded), bytes);
          file.uploaded += length;
        }
      } finally {
        await handle.close();
      }
    }
    if (file.patches && file.uploaded === file.written) {
      await this.store.putBytes(patchesKey(this.sessionKey, name), encodePatches(file.patches));
      this.files.delete(name);
    }
  }
}

/**
 * The sessions whose recording this node left on its disk when it died (a folder of RECORDINGS_DIR is still
 * there: its upload never finished). Read at start, before any room opens.
 */
export async function leftRecordings(recordingsDir: string): Promise<string[]> {
  const entries = await readdir(recordingsDir, { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

/**
 * Uploads the recordings of {@link leftRecordings} from where each file's parts in the store end, then marks
 * each complete and removes it from the disk. Never rejects.
 */
export async function uploadLeftovers(
  store: FileStore,
  recordingsDir: string,
  sessionKeys: string[],
): Promise<void> {
  for (const sessionKey of sessionKeys) {
    const dir = path.join(recordingsDir, sessionKey);
    try {
      const { files } = await storedRecording(store, sessionKey);
      const upload = new RecordingUpload({ store, sessionKey, dir, rounds: false });
      for (const name of await readdir(dir)) {
        const { size } = await stat(path.join(dir, name));
        upload.left(name, partsEnd(files.get(name)?.parts ?? []), size);
      }
      log.info({ sessionKey }, 'uploading a recording left by a node that died');
      await upload.close();
    } catch (error) {
      log.error({ sessionKey, err: error }, 'uploading a recording left on disk failed');
    }
  }
}
