import fs from 'node:fs/promises';
import path from 'node:path';
import type { FilePatch } from '../rtc/webm-writer.ts';

type File = {
  /** Bytes appended since the last flush. */
  chunks: Buffer[];
  /** Header patches, written once the bytes before them are. */
  patches: FilePatch[];
  handle: fs.FileHandle | null;
  /** Where the next appended byte goes (media files are written by position, so they can be patched). */
  size: number;
  /** No more bytes will come: closed after the next flush. */
  finished: boolean;
};

/**
 * The files of one session's recording folder, written in batches: callers append bytes (on the forwarding
 * thread, so never waiting for a disk), and one {@link flush} at a time writes everything appended so far,
 * media files before the manifest (so a manifest line never names a file whose beginning is not on disk yet).
 * What a flush wrote is in the operating system's hands: a killed process loses at most what was appended
 * since the last flush.
 */
export class RecordingFiles {
  readonly dir: string;
  private readonly files = new Map<string, File>();
  private readonly manifest: string;
  private readonly onError: (error: unknown) => void;
  private flushing: Promise<void> = Promise.resolve();
  private madeDir = false;
  private failed = false;

  constructor(dir: string, manifest: string, onError: (error: unknown) => void) {
    this.dir = dir;
    this.manifest = manifest;
    this.onError = onError;
  }

  /** Appends bytes to a file (created by the flush that first writes it). */
  append(name: string, bytes: Buffer): void {
    this.file(name).chunks.push(bytes);
  }

  /** Writes bytes at positions of a file, after every byte appended to it before. */
  patch(name: string, patches: FilePatch[]): void {
    this.file(name).patches.push(...patches);
  }

  /** Nothing more comes for this file: it is closed once written. */
  finish(name: string): void {
    this.file(name).finished = true;
  }

  /** Writes what was appended so far; flushes run one after another. Never rejects (errors go to onError). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  /** Bytes waiting for the next flush (tests, and a bound on memory). */
  get pendingBytes(): number {
    let bytes = 0;
    for (const file of this.files.values()) for (const chunk of file.chunks) bytes += chunk.length;
    return bytes;
  }

  private file(name: string): File {
    let file = this.files.get(name);
    if (!file) {
      file = { chunks: [], patches: [], handle: null, size: 0, finished: false };
      this.files.set(name, file);
    }
    return file;
  }

  private async write(): Promise<void> {
    if (this.failed) return;
    try {
      if (!this.madeDir) {
        await fs.mkdir(this.dir, { recursive: true });
        this.madeDir = true;
      }
      const names = [...this.files.keys()].filter((name) => name !== this.manifest);
      if (this.files.has(this.manifest)) names.push(this.manifest);
      for (const name of names) {
        const file = this.files.get(name);
        if (file) await this.writeFile(name, file);
      }
    } catch (error) {
      // A full or broken disk: the recording stops here (what is on disk stays usable), forwarding goes on.
      this.failed = true;
      this.onError(error);
      for (const file of this.files.values()) await file.handle?.close().catch(() => undefined);
      this.files.clear();
    }
  }

  private async writeFile(name: string, file: File): Promise<void> {
    const bytes = Buffer.concat(file.chunks);
    file.chunks = [];
    const patches = file.patches;
    file.patches = [];
    if (bytes.length > 0 || patches.length > 0) {
      file.handle ??= await fs.open(path.join(this.dir, name), name === this.manifest ? 'a' : 'w');
    }
    if (bytes.length > 0 && file.handle) {
      if (name === this.manifest) await file.handle.write(bytes);
      else await file.handle.write(bytes, 0, bytes.length, file.size);
      file.size += bytes.length;
    }
    for (const { position, bytes: patch } of patches) {
      await file.handle?.write(patch, 0, patch.length, position);
    }
    if (file.finished && file.chunks.length === 0 && file.patches.length === 0) {
      await file.handle?.close();
      this.files.delete(name);
    }
  }
}
