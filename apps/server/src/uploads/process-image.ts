import { loadSharp } from '../load-sharp.ts';
import {
  AVATAR_SIZE_PX,
  BANNER_CARD_WIDTH_PX,
  BANNER_MAX_WIDTH_PX,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_PIXELS,
} from '@sea/contract/uploads';
import type { ImageKind, StoredImage } from '../storage/storage.ts';
import { imageTooLarge, imageTooManyPixels, imageUnreadable, imageUnsupported } from './upload-errors.ts';

/** A re-encoded image, ready for the storage driver (a banner's card copy is BANNER_CARD_WIDTH_PX wide at most). */
export type ProcessedImage = StoredImage & {
  contentType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
};

const ACCEPTED_MIME_TYPES = new Set(['image/jpeg', 'image/png']);

// `failOn: 'error'` keeps phone photos with harmless warnings (extra bytes after the end marker) acceptable,
// while corrupt data still fails. The pixel limit is enforced by libvips on the header, before decoding.
const INPUT_OPTIONS = { limitInputPixels: MAX_UPLOAD_PIXELS, failOn: 'error', animated: false } as const;

const JPEG_QUALITY = 82;

/**
 * Checks that `input` really is a JPEG or PNG within the byte and pixel limits, then re-encodes it for `kind`:
 * orientation applied, metadata (EXIF, GPS, ICC comments) dropped, resized. Images with transparency stay PNG,
 * everything else becomes JPEG.
 */
export async function processImage(input: Buffer, kind: ImageKind): Promise<ProcessedImage> {
  if (input.length > MAX_UPLOAD_BYTES) throw imageTooLarge();
  // file-type loaded at the first upload: an idle server does not need it.
  const { fileTypeFromBuffer } = await import('file-type');
  const type = await fileTypeFromBuffer(input);
  if (type === undefined || !ACCEPTED_MIME_TYPES.has(type.mime)) throw imageUnsupported();
  const sharp = await loadSharp();

  const metadata = await sharp(input, INPUT_OPTIONS)
    .metadata()
    .catch((error: unknown) => {
      throw sharpError(error);
    });
  if (metadata.format !== 'jpeg' && metadata.format !== 'png') throw imageUnsupported();
  // Belt and braces: libvips already refused larger headers above.
  if (metadata.width * metadata.height > MAX_UPLOAD_PIXELS) throw imageTooManyPixels();

  const pipeline = sharp(input, INPUT_OPTIONS).autoOrient();
  if (kind === 'banner') pipeline.resize({ width: BANNER_MAX_WIDTH_PX, withoutEnlargement: true });
  else pipeline.resize(AVATAR_SIZE_PX, AVATAR_SIZE_PX, { fit: 'cover', position: 'attention' });
  const png = metadata.hasAlpha;
  if (png) pipeline.png();
  else pipeline.jpeg({ quality: JPEG_QUALITY });

  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true }).catch((error: unknown) => {
    throw sharpError(error);
  });
  return {
    bytes: data,
    extension: png ? 'png' : 'jpg',
    contentType: png ? 'image/png' : 'image/jpeg',
    width: info.width,
    height: info.height,
    ...(kind === 'banner' ? { card: await bannerCard(data) } : {}),
  };
}

/**
 * The card copy of a re-encoded banner (JPEG or PNG, as the banner): at most BANNER_CARD_WIDTH_PX wide, never
 * enlarged. Also made for banners stored before copies existed (`ImageStorage.addMissingCards`).
 */
export async function bannerCard(banner: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  const pipeline = sharp(banner, INPUT_OPTIONS).resize({
    width: BANNER_CARD_WIDTH_PX,
    withoutEnlargement: true,
  });
  const { format } = await pipeline.metadata();
  return (format === 'png' ? pipeline.png() : pipeline.jpeg({ quality: JPEG_QUALITY })).toBuffer();
}

function sharpError(error: unknown): Error {
  if (error instanceof Error && /pixel limit/i.test(error.message)) return imageTooManyPixels();
  return imageUnreadable();
}
