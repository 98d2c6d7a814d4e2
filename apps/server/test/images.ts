import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** A solid-colour JPEG made at test time. */
export function jpeg(width: number, height: number, withExif = false): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: '#1e6fd9' } }).jpeg();
  return (
    withExif ? image.withMetadata({ exif: { IFD0: { Copyright: 'secret-exif-marker' } } }) : image
  ).toBuffer();
}

/** A PNG, with an alpha channel when `alpha` is true. */
export function png(width: number, height: number, alpha = false): Promise<Buffer> {
  const background = alpha ? { r: 0, g: 128, b: 255, alpha: 0.5 } : '#0a8f6c';
  return sharp({ create: { width, height, channels: alpha ? 4 : 3, background } })
    .png()
    .toBuffer();
}

export function gif(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#ff0000' } })
    .gif()
    .toBuffer();
}

/**
 * A tiny PNG whose header declares `width` x `height` pixels (a pixel flood): the IHDR fields are rewritten and
 * its CRC recomputed, so the file is well-formed up to the point where decoding would begin.
 */
export async function pixelFloodPng(width = 50_000, height = 50_000): Promise<Buffer> {
  const bytes = Buffer.from(await png(8, 8));
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  // The IHDR chunk's CRC covers its type and data (bytes 12..28).
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)) >>> 0, 29);
  return bytes;
}
