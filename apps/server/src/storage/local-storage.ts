import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageKind, ProcessedImage } from '../uploads/process-image.ts';
import { isStorageKey, newKey, UPLOADS_PREFIX } from './storage.ts';
import type { Storage } from './storage.ts';

/** Stores uploads as files in one folder (UPLOAD_DIR), served by the API server under `/uploads/`. */
export class LocalStorage implements Storage {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  async save(kind: ImageKind, image: Pick<ProcessedImage, 'bytes' | 'extension'>): Promise<string> {
    const id = randomUUID();
    const key = newKey(kind, image.extension, id);
    const target = path.join(this.dir, key);
    await mkdir(path.dirname(target), { recursive: true });
    // Write beside the target and rename, so a reader never sees a half-written image.
    const partial = path.join(path.dirname(target), `.${id}.partial`);
    try {
      await writeFile(partial, image.bytes, { flag: 'wx' });
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return key;
  }

  async remove(key: string): Promise<void> {
    if (!isStorageKey(key)) return;
    await rm(path.join(this.dir, key), { force: true });
  }

  url(key: string): string {
    return `${UPLOADS_PREFIX}${key}`;
  }
}
