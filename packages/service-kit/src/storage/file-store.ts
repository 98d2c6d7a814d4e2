import type { Readable } from 'node:stream';

/**
 * A stored file's size in bytes and, where the store keeps one, its checksum as S3 makes it (the ETag: the MD5
 * of a file put whole, or the MD5 of its parts' MD5s and `-parts` for a multipart upload).
 */
export type FileInfo = { size: number; checksum?: string };

/** Bytes `start` to `end` of a file, both included (as HTTP Range counts them). */
export type ByteRange = { start: number; end: number };

/** A stored file opened for reading: its bytes (all, or the range asked for) and the whole file's size. */
export type OpenedFile = { stream: Readable; size: number; range: ByteRange | null };

/** What a signed URL of a stored file may say: how long it lives, and the name of a download. */
export type SignedUrlOptions = { expiresInS: number; downloadName?: string; contentType?: string };

/**
 * Where the platform keeps one area of its files (uploaded images, materials, replays): every file is read and
 * written through this port, and nothing else knows which driver is behind it. The local folder
 * (`LocalFileStore`) is the default; `STORAGE=s3` puts every area into one bucket of an S3-compatible object
 * store (`S3FileStore`), each under its own prefix.
 *
 * Keys are made by the server only, `/`-separated plain names (`materials/<uuid>/page-3.webp`); a key with
 * anything else (`..`, an absolute path) is refused, so one read back from the database never leaves the store.
 * A reader never sees half a file: a put is whole or absent.
 */
export type FileStore = {
  /** Stores the local file `from` under `key` (replacing a file of that key). */
  put(key: string, from: string): Promise<void>;
  /** Stores bytes under `key`, as {@link FileStore.put}. */
  putBytes(key: string, bytes: Buffer): Promise<void>;
  /**
   * Moves every file of the local folder `dir` under `prefix/` (replacing what was there), then removes `dir`:
   * a job's output (a replay) made on the local disk goes into the store.
   */
  putFolder(prefix: string, dir: string): Promise<void>;
  /** Copies a stored file to the local file `to` (a job's input); throws when there is none. */
  copyOut(key: string, to: string): Promise<void>;
  /** Opens a stored file for reading, whole or a byte range (clamped to the file); null when there is none. */
  open(key: string, range?: ByteRange): Promise<OpenedFile | null>;
  /** A stored file's bytes, or null when there is none (small files: a manifest, a timeline). */
  read(key: string): Promise<Buffer | null>;
  /** A stored file's size, or null when there is none. */
  stat(key: string): Promise<FileInfo | null>;
  /** The files under `prefix/` (any depth; `''`: the whole store), keys relative to the store, in no promised order. */
  list(prefix: string): Promise<{ key: string; size: number }[]>;
  /** Removes one file; none there is not an error. */
  remove(key: string): Promise<void>;
  /** Removes every file under `prefix/` (a material's folder); nothing there is not an error. */
  removeAll(prefix: string): Promise<void>;
  /**
   * A URL a browser may fetch the file from directly, valid `expiresInS` seconds (an object store's presigned
   * URL), or null when the store has none (the local folder: the API server streams the file itself).
   */
  signedUrl(key: string, options: SignedUrlOptions): Promise<string | null>;
};

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A key the server could have made: 1 to 4 plain names joined by `/`, none of them `.` or `..`. */
export function isFileKey(key: string): boolean {
  const segments = key.split('/');
  return segments.length <= 4 && segments.every((segment) => SEGMENT.test(segment) && !/^\.+$/.test(segment));
}

/** A range clamped to a file of `size` bytes; null when it starts past the end (or the file is empty). */
export function clampRange(range: ByteRange, size: number): ByteRange | null {
  if (range.start >= size || range.start > range.end) return null;
  return { start: range.start, end: Math.min(range.end, size - 1) };
}
