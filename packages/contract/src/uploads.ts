/** Largest accepted upload: 5 MB (api.md section 1.2). */
export const MAX_UPLOAD_BYTES = 5_242_880;

/** Largest accepted decoded image, in pixels (guards against pixel floods). */
export const MAX_UPLOAD_PIXELS = 40_000_000;

/** MIME types a browser may report for an accepted image; the server checks the real content. */
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/jpg', 'image/png'] as const;

/** The multipart file part name of every upload. */
export const IMAGE_PART = 'imagefile';

/** Re-encoded sizes: banners at most this wide, avatars exactly this square. */
export const BANNER_MAX_WIDTH_PX = 1184;
export const AVATAR_SIZE_PX = 256;

/** True when a browser-reported file is acceptable before upload (type and size). */
export function isAcceptableImage(file: { type: string; size: number }): boolean {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(file.type) && file.size <= MAX_UPLOAD_BYTES;
}
