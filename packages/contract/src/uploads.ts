/** Largest accepted upload: 5 MB (the original API spec section 1.2). */
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

/**
 * Width of the smaller copy the server keeps of every uploaded banner, for class cards (a card is at most about
 * 300 CSS pixels wide, so this covers screens of up to 1.6 device pixels per CSS pixel at full card width).
 */
export const BANNER_CARD_WIDTH_PX = 480;

/** How wide a class card's banner shows, for the browser's choice between the card copy and the banner. */
export const BANNER_CARD_SIZES = '(min-width: 1185px) 296px, 50vw';

const UPLOADED_BANNER =
  /^((?:https?:\/\/[^/?#]+)?\/uploads\/banners\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(jpg|png)$/;

/**
 * The card copy of an uploaded banner (`/uploads/banners/<id>.jpg` → `/uploads/banners/<id>.card.jpg`, on the
 * same origin when the URL is absolute, as the API gives them with CORS_ORIGINS set), or null for anything
 * else (no banner, a bundled default image).
 */
export function bannerCardPath(bannerPath: string | null | undefined): string | null {
  const match = bannerPath ? UPLOADED_BANNER.exec(bannerPath) : null;
  return match ? `${match[1]}.card.${match[2]}` : null;
}

/** The `srcset` of a class card's banner: its card copy and the full banner, by width. */
export function bannerCardSrcSet(bannerPath: string): string | null {
  const card = bannerCardPath(bannerPath);
  return card ? `${card} ${BANNER_CARD_WIDTH_PX}w, ${bannerPath} ${BANNER_MAX_WIDTH_PX}w` : null;
}
