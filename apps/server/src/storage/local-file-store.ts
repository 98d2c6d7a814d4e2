import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type FileStore, isFileKey } from './file-store.ts';

/** Keeps the files of a {@link FileStore} in one local folder (DATA_DIR/files by default), never served as is. */
export class LocalFileStore implements FileStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  async put(key: string, from: string): Promise<void> {
    await this.#write(key, (partial) => copyFile(from, partial));
  }

  async putBytes(key: string, bytes: Buffer): Promise<void> {
    await this.#write(key, (partial) => writeFile(partial, bytes, { flag: 'wx' }));
  }

  async copyOut(key: string, to: string): Promise<void> {
    await copyFile(this.#path(key), to);
  }

  async open(key: string): Promise<{ stream: ReturnType<typeof createReadStream>; size: number } | null> {
    const file = this.#path(key);
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      return { stream: createReadStream(file), size: info.size };
    } catch {
      return null;
    }
  }

  async removeAll(prefix: string): Promise<void> {
    await rm(this.#path(prefix), { recursive: true, force: true });
  }

  #path(key: string): string {
    if (!isFileKey(key)) throw new Error(`Not a file key: ${key}`);
    return path.join(this.dir, key);
  }

  /** Writes beside the target and renames, so a reader never sees a half-written file. */
  async #write(key: string, write: (partial: string) => Promise<void>): Promise<void> {
    const target = this.#path(key);
    await mkdir(path.dirname(target), { recursive: true });
    const partial = path.join(path.dirname(target), `.${randomUUID()}.partial`);
    try {
      await write(partial);
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }
}
