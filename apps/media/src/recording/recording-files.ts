import fs from 'node:fs/promises';
import path from 'node:path';
import type { FilePatch } from '../rtc/webm-writer.ts';

type File = {
  /** Bytes appended since the last flush. */
  chunks: Buffer[];
  /** Their total length. */
  pending: number;
  /** Header patches, written once the bytes before them are. */
  patches: FilePatch[];
  /** The patches written so far (told when the file closes). */
  patched: FilePatch[];
  handle: fs.FileHandle | null;
  /** Where the next appended byte goes (media files are written by position, so they can be patched). */
  size: number;
  /** No more bytes will come: closed after the next flush. */
  finished: boolean;
};

/**
 * The most bytes a media file holds waiting for a flush: a few seconds of the best layer. Past it the disk is
 * far too slow and the file is given up like an unwritable one, rather than held in memory without limit.
 */
export const MAX_PENDING_FILE_BYTES = 2 * 1024 * 1024;

/**
 * The free space an unwritable folder needs before writing is tried again: a disk with a few bytes free
 * would take the manifest's lines and fail again at the next media bytes, a stretch a second.
 */
export const MIN_FREE_BYTES = 8 * 1024 * 1024;

/** Why the files cannot be written: the error's code (`ENOSPC`, `EIO`, `EROFS`...) or `slow`. */
export type WriteFailure = { reason: string; error: unknown };

/** What the files tell as they go: failures, and (for an upload that follows the disk) what was written. */
export type RecordingFilesEvents = {
  failed: (failure: WriteFailure) => void;
  recovered: () => void;
  /** A file holds `size` bytes on disk now; nothing below it changes but by the patches told at its close. */
  written?: (name: string, size: number) => void;
  /** A file is complete and closed; `patches` were written at earlier positions. */
  closed?: (name: string, patches: FilePatch[]) => void;
};

/**
 * The files of one session's recording folder, written in batches: callers append bytes (on the forwarding
 * thread, so never waiting for a disk), and one {@link flush} at a time writes everything appended so far,
 * media files before the manifest (so a manifest line never names a file whose beginning is not on disk yet).
 * What a flush wrote is in the operating system's hands: a killed process loses at most what was appended
 * since the last flush.
 *
 * A write that fails (a full, broken or read-only disk) makes the files {@link unwritable}: the media files
 * end where their bytes stopped (readable, as after a crash), their later bytes are dropped, and `failed` is
 * called once. Only the manifest's lines are kept (a few per minute); each flush tries them again, and once
 * they are written the files are writable again (`recovered`): new media files are written as before.
 */
export class RecordingFiles {
  readonly dir: string;
  private readonly files = new Map<string, File>();
  private readonly manifest: string;
  private readonly events: RecordingFilesEvents;
  private flushing: Promise<void> = Promise.resolve();
  /** The flush queued behind the one running, which every later call shares. */
  private queued: Promise<void> | null = null;
  private madeDir = false;
  private broken = false;
  /** Media files given up by a failure: whatever still comes for them (their end's patches) is dropped. */
  private readonly dropped = new Set<string>();

  constructor(dir: string, manifest: string, events: RecordingFilesEvents) {
    this.dir = dir;
    this.manifest = manifest;
    this.events = events;
  }

  /** Whether the last flush could not write (until one writes the manifest again). */
  get unwritable(): boolean {
    return this.broken;
  }

  /** Appends bytes to a file (created by the flush that first writes it); dropped while unwritable. */
  append(name: string, bytes: Buffer): void {
    if (this.refuses(name)) return;
    const file = this.file(name);
    file.chunks.push(bytes);
    file.pending += bytes.length;
    if (name !== this.manifest && file.pending > MAX_PENDING_FILE_BYTES) {
      this.fail({
        reason: 'slow',
        error: new Error(`${name}: more than ${MAX_PENDING_FILE_BYTES} bytes wait`),
      });
    }
  }

  /** Writes bytes at positions of a file, after every byte appended to it before. */
  patch(name: string, patches: FilePatch[]): void {
    if (this.refuses(name)) return;
    this.file(name).patches.push(...patches);
  }

  /** Nothing more comes for this file: it is closed once written. */
  finish(name: string): void {
    if (!this.refuses(name)) this.file(name).finished = true;
  }

  /** Writes what was appended so far; flushes run one after another. Never rejects (errors go to `failed`). */
  flush(): Promise<void> {
    this.queued ??= this.flushing.then(() => {
      this.queued = null;
      return this.write();
    });
    this.flushing = this.queued;
    return this.queued;
  }

  /** Bytes waiting for the next flush (tests, and a bound on memory). */
  get pendingBytes(): number {
    let bytes = 0;
    for (const file of this.files.values()) bytes += file.pending;
    return bytes;
  }

  private refuses(name: string): boolean {
    if (name === this.manifest) return false;
    if (this.broken) this.dropped.add(name);
    return this.dropped.has(name);
  }

  private file(name: string): File {
    let file = this.files.get(name);
    if (!file) {
      file = { chunks: [], pending: 0, patches: [], patched: [], handle: null, size: 0, finished: false };
      this.files.set(name, file);
    }
    return file;
  }

  private async write(): Promise<void> {
    const wasBroken = this.broken;
    try {
      if (!this.madeDir) {
        await fs.mkdir(this.dir, { recursive: true });
        this.madeDir = true;
      }
      if (this.broken) await this.enoughSpace();
      const names = [...this.files.keys()].filter((name) => name !== this.manifest);
      if (this.files.has(this.manifest)) names.push(this.manifest);
      for (const name of names) {
        const file = this.files.get(name);
        if (file) await this.writeFile(name, file);
      }
    } catch (error) {
      this.fail({ reason: errorCode(error), error });
      return;
    }
    if (wasBroken && this.broken) {
      this.broken = false;
      this.events.recovered();
    }
  }

  /** Gives up the media files (what is on disk stays readable); the manifest's lines are kept. */
  private fail(failure: WriteFailure): void {
    for (const [name, file] of this.files) {
      if (name === this.manifest) continue;
      // Closing frees nothing that matters if it fails too: the descriptor goes either way.
      void file.handle?.close().catch(() => undefined);
      this.files.delete(name);
      this.dropped.add(name);
    }
    if (this.broken) return;
    this.broken = true;
    this.events.failed(failure);
  }

  private async writeFile(name: string, file: File): Promise<void> {
    const chunks = file.chunks;
    const bytes = Buffer.concat(chunks);
    const patches = file.patches;
    file.chunks = [];
    file.pending = 0;
    file.patches = [];
    try {
      if (bytes.length > 0 || patches.length > 0) {
        file.handle ??= await fs.open(path.join(this.dir, name), name === this.manifest ? 'a' : 'w');
      }
      if (bytes.length > 0 && file.handle) {
        if (name === this.manifest) await this.appendLines(file.handle, file.size, bytes);
        else await file.handle.write(bytes, 0, bytes.length, file.size);
        file.size += bytes.length;
        this.events.written?.(name, file.size);
      }
    } catch (error) {
      // The manifest's lines wait for the next try, before any appended since.
      file.chunks = [...chunks, ...file.chunks];
      file.pending += bytes.length;
      throw error;
    }
    for (const patch of patches) {
      await file.handle?.write(patch.bytes, 0, patch.bytes.length, patch.position);
      file.patched.push(patch);
    }
    if (file.finished && file.chunks.length === 0 && file.patches.length === 0) {
      await file.handle?.close();
      this.files.delete(name);
      this.events.closed?.(name, file.patched);
    }
  }

  private async enoughSpace(): Promise<void> {
    const { bavail, bsize } = await fs.statfs(this.dir);
    if (bavail * bsize < MIN_FREE_BYTES) {
      throw Object.assign(new Error(`less than ${MIN_FREE_BYTES} bytes free`), { code: 'ENOSPC' });
    }
  }

  /**
   * Appends the manifest's lines whole or not at all: a full disk may take part of them, and a line cut off
   * there would glue onto the next one written, losing both.
   */
  private async appendLines(handle: fs.FileHandle, size: number, bytes: Buffer): Promise<void> {
    try {
      const { bytesWritten } = await handle.write(bytes);
      if (bytesWritten < bytes.length) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
    } catch (error) {
      await handle.truncate(size).catch(() => undefined);
      throw error;
    }
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown';
}
