import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type ByteRange,
  clampRange,
  type FileInfo,
  type FileStore,
  isFileKey,
  type OpenedFile,
} from './file-store.ts';

/** Keeps the files of a {@link FileStore} in one local folder, served only through the API server. */
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

  async putFolder(prefix: string, dir: string): Promise<void> {
    const target = this.#path(prefix);
    await mkdir(path.dirname(target), { recursive: true });
    await rm(target, { recursive: true, force: true });
    try {
      await rename(dir, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // Another filesystem: copied file by file, then the work folder goes.
      for (const name of await readdir(dir, { recursive: true })) {
        const from = path.join(dir, name);
        if ((await stat(from)).isFile()) await this.put(`${prefix}/${name.split(path.sep).join('/')}`, from);
      }
      await rm(dir, { recursive: true, force: true });
    }
  }

  async copyOut(key: string, to: string): Promise<void> {
    await copyFile(this.#path(key), to);
  }

  /**
   * Opens the file before it is measured and streamed from that one handle: a file removed meanwhile (a
   * replaced photo) is either missing here or read whole, never an error halfway through a response.
   */
  async open(key: string, range?: ByteRange): Promise<OpenedFile | null> {
    let handle;
    try {
      handle = await open(this.#path(key), 'r');
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
    try {
      const info = await handle.stat();
      const clamped = range === undefined ? null : clampRange(range, info.size);
      if (!info.isFile() || (range !== undefined && clamped === null)) {
        await handle.close();
        return null;
      }
      const stream = handle.createReadStream(clamped ?? {});
      return { stream, size: info.size, range: clamped };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.#path(key));
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async stat(key: string): Promise<FileInfo | null> {
    try {
      const info = await stat(this.#path(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async list(prefix: string): Promise<{ key: string; size: number }[]> {
    const folder = prefix === '' ? this.dir : this.#path(prefix);
    let names: string[];
    try {
      names = await readdir(folder, { recursive: true });
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
    const files: { key: string; size: number }[] = [];
    for (const name of names) {
      const key = [prefix, ...name.split(path.sep)].filter((part) => part !== '').join('/');
      // Half-written files (`.<uuid>.partial`) are no keys; a file removed meanwhile is left out.
      if (!isFileKey(key)) continue;
      const info = await stat(path.join(folder, name)).catch(() => null);
      if (info?.isFile()) files.push({ key, size: info.size });
    }
    return files;
  }

  async remove(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  async removeAll(prefix: string): Promise<void> {
    await rm(this.#path(prefix), { recursive: true, force: true });
  }

  async signedUrl(): Promise<string | null> {
    return null;
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

function missing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
