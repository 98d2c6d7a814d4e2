/**
 * The product's name hash: for each UTF-16 code unit c, h = c + ((h << 5) - h) in 32-bit arithmetic.
 * Existing clients pick default images with it, so the same name keeps the same picture everywhere.
 */
export function stringHash(text: string): number {
  let hash = 0;
  for (let index = 0; index < text.length; index += 1) {
    hash = (text.charCodeAt(index) + ((hash << 5) - hash)) | 0;
  }
  return hash;
}

/** Index into a list of `count` items for `text`: |hash % count|. */
export function hashIndex(text: string, count: number): number {
  return Math.abs(stringHash(text) % count);
}
