import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cardKey, isStorageKey, newKey, UPLOADS_PREFIX } from './storage.ts';
import type { ImageKind, Storage, StoredImage } from './storage.ts';

/**
 * Stores uploads as files in one folder (UPLOAD_DIR), served by the API server under `/uploads/`. Their URLs
 * are that path, or with `origin` (PUBLIC_URL, given when pages of other origins call the API) absolute, so
 * such a page does not resolve them against itself.
 */
export class LocalStorage implements Storage {
  readonly dir: string;
  readonly #origin: string;

  constructor(dir: string, origin = '') {
    this.dir = path.resolve(dir);
    this.#origin = origin;
  }

  async save(kind: ImageKind, image: StoredImage): Promise<string> {
    const id = randomUUID();
    const key = newKey(kind, image.extension, id);
    const card = image.card === undefined ? null : cardKey(key);
    // The card copy first: a banner that exists always has its copy.
    if (card !== null && image.card !== undefined) await this.#write(card, image.card);
    try {
      await this.#write(key, image.bytes);
    } catch (error) {
      if (card !== null) await rm(path.join(this.dir, card), { force: true });
      throw error;
    }
    return key;
  }

  async remove(key: string): Promise<void> {
    if (!isStorageKey(key)) return;
    await rm(path.join(this.dir, key), { force: true });
    const card = cardKey(key);
    if (card !== null) await rm(path.join(this.dir, card), { force: true });
  }

  url(key: string): string {
    return `${this.#origin}${UPLOADS_PREFIX}${key}`;
  }

  /**
   * Makes the card copy of every stored banner that has none (banners stored before copies existed), one at a
   * time, with `makeCard` (the uploads' image processing). Answers how many it made; a banner it cannot read is
   * skipped (and stays served as it is).
   */
  async addMissingCards(makeCard: (banner: Buffer) => Promise<Buffer>): Promise<number> {
    const folder = path.join(this.dir, 'banners');
    const names = await readdir(folder).catch(() => [] as string[]);
    const present = new Set(names);
    let made = 0;
    for (const name of names) {
      const key = `banners/${name}`;
      const card = cardKey(key);
      if (card === null || present.has(path.basename(card))) continue;
      try {
        await this.#write(card, await makeCard(await readFile(path.join(this.dir, key))));
        made += 1;
      } catch {
        // An unreadable file keeps its banner without a copy; the web app then loads the banner itself.
      }
    }
    return made;
  }

  /** Writes beside the target and renames, so a reader never sees a half-written image. */
  async #write(key: string, bytes: Buffer): Promise<void> {
    const target = path.join(this.dir, key);
    await mkdir(path.dirname(target), { recursive: true });
    const partial = path.join(path.dirname(target), `.${randomUUID()}.partial`);
    try {
      await writeFile(partial, bytes, { flag: 'wx' });
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }
}
