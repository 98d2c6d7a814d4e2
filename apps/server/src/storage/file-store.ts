import type { Readable } from 'node:stream';

/**
 * Where the server keeps private files that are not images: a class's materials (the uploaded document, its PDF
 * and its rendered pages). The local folder is the default; an object store can implement the same methods.
 * Keys are made by the server only, `/`-separated plain names (`materials/<uuid>/page-3.webp`); a key with
 * anything else (`..`, an absolute path) is refused, so one read back from the database never leaves the store.
 */
export type FileStore = {
  /** Stores the local file `from` under `key` (replacing a file of that key); a reader never sees half of it. */
  put(key: string, from: string): Promise<void>;
  /** Stores bytes under `key`, as {@link FileStore.put}. */
  putBytes(key: string, bytes: Buffer): Promise<void>;
  /** Copies a stored file to the local file `to` (a job's input); throws when there is none. */
  copyOut(key: string, to: string): Promise<void>;
  /** Opens a stored file for reading: its bytes as a stream and its size, or null when there is none. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Removes every file under `prefix/` (a material's folder); nothing there is not an error. */
  removeAll(prefix: string): Promise<void>;
};

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A key the server could have made: 1 to 4 plain names joined by `/`, none of them `.` or `..`. */
export function isFileKey(key: string): boolean {
  const segments = key.split('/');
  return segments.length <= 4 && segments.every((segment) => SEGMENT.test(segment) && !/^\.+$/.test(segment));
}
