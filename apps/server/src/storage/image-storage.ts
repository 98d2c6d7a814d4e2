import { randomUUID } from 'node:crypto';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { cardKey, isStorageKey, newKey, UPLOADS_PREFIX } from './storage.ts';
import type { ImageKind, Storage, StoredImage } from './storage.ts';

/**
 * Stores uploads in the uploads' {@link FileStore} (UPLOAD_DIR, or the bucket's `uploads/`), served by the API
 * server under `/uploads/` on either driver. Their URLs are that path, or with `origin` (PUBLIC_URL, given when
 * pages of other origins call the API) absolute, so such a page does not resolve them against itself.
 */
export class ImageStorage implements Storage {
  readonly files: FileStore;
  readonly #origin: string;

  constructor(files: FileStore, origin = '') {
    this.files = files;
    this.#origin = origin;
  }

  async save(kind: ImageKind, image: StoredImage): Promise<string> {
    const key = newKey(kind, image.extension, randomUUID());
    const card = image.card === undefined ? null : cardKey(key);
    // The card copy first: a banner that exists always has its copy.
    if (card !== null && image.card !== undefined) await this.files.putBytes(card, image.card);
    try {
      await this.files.putBytes(key, image.bytes);
    } catch (error) {
      if (card !== null) await this.files.remove(card);
      throw error;
    }
    return key;
  }

  async remove(key: string): Promise<void> {
    if (!isStorageKey(key)) return;
    await this.files.remove(key);
    const card = cardKey(key);
    if (card !== null) await this.files.remove(card);
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
    const present = new Set((await this.files.list('banners')).map((file) => file.key));
    let made = 0;
    for (const key of present) {
      const card = cardKey(key);
      if (card === null || present.has(card)) continue;
      try {
        const banner = await this.files.read(key);
        if (banner === null) continue;
        await this.files.putBytes(card, await makeCard(banner));
        made += 1;
      } catch {
        // An unreadable file keeps its banner without a copy; the web app then loads the banner itself.
      }
    }
    return made;
  }
}
