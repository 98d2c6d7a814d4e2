import type { ImageKind, Storage, StoredImage } from './storage.ts';

/**
 * Stores `image` (when there is one), then runs `work` with its key (null without an image). When `work` fails
 * the new file is removed again, so a refused request leaves no file behind.
 */
export async function withStoredImage<T>(
  storage: Storage,
  kind: ImageKind,
  image: StoredImage | undefined,
  work: (key: string | null) => Promise<T>,
): Promise<T> {
  const key = image === undefined ? null : await storage.save(kind, image);
  try {
    return await work(key);
  } catch (error) {
    if (key !== null) await storage.remove(key);
    throw error;
  }
}
