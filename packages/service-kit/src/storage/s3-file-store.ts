import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  type ByteRange,
  clampRange,
  type FileInfo,
  type FileStore,
  isFileKey,
  type OpenedFile,
  type SignedUrlOptions,
} from './file-store.ts';
import type { S3Settings } from './storage-config.ts';
import { StoreUnavailable } from './store-errors.ts';

/** Parts of a multipart upload (lib-storage): few enough in memory at once; checksums count with it. */
export const PART_BYTES = 8 * 1024 * 1024;
const UPLOAD_QUEUE = 2;
/** Files of a folder uploaded at once. */
const FOLDER_UPLOADS = 4;
/** Most pages of a listing read (1000 keys each): far more than any prefix of this platform holds. */
const MAX_LIST_PAGES = 1000;

/** An S3 client for these settings (one per process; every area shares it). */
export function s3Client(settings: S3Settings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Bounded retries: a store that is down fails the request (503) rather than holding it for minutes.
    maxAttempts: 3,
    // A store whose host drops packets fails at connect after 5 s instead of the system's TCP timeout (about
    // two minutes). No inactivity limit on requests: a browser that pauses a streamed MP4 holds its read.
    requestHandler: { connectionTimeout: 5_000 },
    // Checksums only where the API demands them: stores other than Amazon's (Swift, older Ceph) refuse the
    // SDK's default trailing checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * Keeps the files of a {@link FileStore} in a bucket of an S3-compatible object store, under `area/` (one
 * bucket holds every area). Writes are whole objects (a multipart upload completes or leaves nothing), so a
 * reader never sees half a file. Failures to write or read surface as 503 errors with a reason.
 */
export class S3FileStore implements FileStore {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #area: string;

  constructor(client: S3Client, bucket: string, area: string) {
    this.#client = client;
    this.#bucket = bucket;
    this.#area = area;
  }

  async put(key: string, from: string): Promise<void> {
    await this.#upload(this.#key(key), createReadStream(from));
  }

  async putBytes(key: string, bytes: Buffer): Promise<void> {
    const Key = this.#key(key);
    try {
      await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key, Body: bytes }));
    } catch (error) {
      throw new StoreUnavailable('write', error);
    }
  }

  async putFolder(prefix: string, dir: string): Promise<void> {
    const names: string[] = [];
    for (const name of await readdir(dir, { recursive: true })) {
      if ((await stat(path.join(dir, name))).isFile()) names.push(name.split(path.sep).join('/'));
    }
    const before = await this.list(prefix);
    for (let at = 0; at < names.length; at += FOLDER_UPLOADS) {
      await Promise.all(
        names
          .slice(at, at + FOLDER_UPLOADS)
          .map((name) => this.put(`${prefix}/${name}`, path.join(dir, name))),
      );
    }
    // What an earlier version held and this one does not (fewer segments) goes, so the folder is this one.
    const kept = new Set(names.map((name) => `${prefix}/${name}`));
    await this.#removeKeys(before.map((file) => file.key).filter((key) => !kept.has(key)));
    await rm(dir, { recursive: true, force: true });
  }

  async copyOut(key: string, to: string): Promise<void> {
    const opened = await this.open(key);
    if (opened === null) {
      throw Object.assign(new Error(`No stored file: ${key}`), { code: 'ENOENT' });
    }
    await pipeline(opened.stream, createWriteStream(to));
  }

  async open(key: string, range?: ByteRange): Promise<OpenedFile | null> {
    const Key = this.#key(key);
    let size: number | null = null;
    let clamped: ByteRange | null = null;
    if (range !== undefined) {
      const info = await this.stat(key);
      if (info === null) return null;
      size = info.size;
      clamped = clampRange(range, size);
      if (clamped === null) return null;
    }
    try {
      const answer = await this.#client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key,
          ...(clamped ? { Range: `bytes=${clamped.start}-${clamped.end}` } : {}),
        }),
      );
      if (!(answer.Body instanceof Readable)) throw new Error('the object store answered no stream');
      return { stream: answer.Body, size: size ?? answer.ContentLength ?? 0, range: clamped };
    } catch (error) {
      if (isMissing(error)) return null;
      throw new StoreUnavailable('read', error);
    }
  }

  async read(key: string): Promise<Buffer | null> {
    const opened = await this.open(key);
    if (opened === null) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async stat(key: string): Promise<FileInfo | null> {
    try {
      const answer = await this.#client.send(
        new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }),
      );
      const checksum = answer.ETag?.replace(/"/g, '');
      return { size: answer.ContentLength ?? 0, ...(checksum ? { checksum } : {}) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw new StoreUnavailable('read', error);
    }
  }

  async list(prefix: string): Promise<{ key: string; size: number }[]> {
    const Prefix = prefix === '' ? `${this.#area}/` : `${this.#key(prefix)}/`;
    const areaPrefix = `${this.#area}/`;
    const files: { key: string; size: number }[] = [];
    let ContinuationToken: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      let answer;
      try {
        answer = await this.#client.send(
          new ListObjectsV2Command({ Bucket: this.#bucket, Prefix, ContinuationToken }),
        );
      } catch (error) {
        throw new StoreUnavailable('read', error);
      }
      for (const item of answer.Contents ?? []) {
        if (item.Key?.startsWith(areaPrefix)) {
          files.push({ key: item.Key.slice(areaPrefix.length), size: item.Size ?? 0 });
        }
      }
      if (!answer.IsTruncated || !answer.NextContinuationToken) return files;
      ContinuationToken = answer.NextContinuationToken;
    }
    throw new Error(`listing ${Prefix} did not end after ${MAX_LIST_PAGES} pages`);
  }

  async remove(key: string): Promise<void> {
    try {
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
    } catch (error) {
      if (!isMissing(error)) throw new StoreUnavailable('write', error);
    }
  }

  async removeAll(prefix: string): Promise<void> {
    await this.#removeKeys((await this.list(prefix)).map((file) => file.key));
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string | null> {
    const command = new GetObjectCommand({
      Bucket: this.#bucket,
      Key: this.#key(key),
      ...(options.contentType ? { ResponseContentType: options.contentType } : {}),
      ...(options.downloadName ? { ResponseContentDisposition: options.downloadName } : {}),
    });
    return getSignedUrl(this.#client, command, { expiresIn: options.expiresInS });
  }

  #key(key: string): string {
    if (!isFileKey(key)) throw new Error(`Not a file key: ${key}`);
    return `${this.#area}/${key}`;
  }

  async #upload(Key: string, Body: Readable): Promise<void> {
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.#bucket, Key, Body },
      partSize: PART_BYTES,
      queueSize: UPLOAD_QUEUE,
      // A failed multipart upload is aborted: the store keeps no orphaned parts.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      throw new StoreUnavailable('write', error);
    }
  }

  /** One DELETE per key, a few at once: multi-object delete wants checksums not every store takes. */
  async #removeKeys(keys: string[]): Promise<void> {
    for (let at = 0; at < keys.length; at += FOLDER_UPLOADS) {
      await Promise.all(keys.slice(at, at + FOLDER_UPLOADS).map((key) => this.remove(key)));
    }
  }
}

function isMissing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  if (error.name === 'NoSuchBucket') return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}
