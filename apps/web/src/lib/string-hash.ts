/**
 * The product's name hash: for each UTF-16 code unit c, h = c + ((h << 5) - h), index = |h % N|.
 * Only the shift is 32-bit (JavaScript's `<<` works on int32); h itself is a number that may grow past 32 bits,
 * exactly as the existing clients compute it, so the same name keeps the same picture everywhere. It stays an
 * exact integer for any name shorter than two million characters: each step adds less than 2^32 to |h|.
 */
export function stringHash(text: string): number {
  let hash = 0;
  for (let index = 0; index < text.length; index += 1) {
    hash = text.charCodeAt(index) + ((hash << 5) - hash);
  }
  return hash;
}

/** Index into a list of `count` items for `text`: |hash % count|. */
export function hashIndex(text: string, count: number): number {
  return Math.abs(stringHash(text) % count);
}
