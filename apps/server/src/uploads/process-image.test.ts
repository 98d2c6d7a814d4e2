import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  AVATAR_SIZE_PX,
  BANNER_CARD_WIDTH_PX,
  BANNER_MAX_WIDTH_PX,
  MAX_UPLOAD_BYTES,
} from '@sea/contract/uploads';
import { HttpError } from '../errors.ts';
import { gif, jpeg, pixelFloodPng, png } from '../../test/images.ts';
import { processImage } from './process-image.ts';

async function rejection(promise: Promise<unknown>): Promise<HttpError> {
  const error: unknown = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  if (!(error instanceof HttpError)) throw error;
  return error;
}

describe('processImage', () => {
  it('shrinks a wide banner to 1184 px and drops its metadata', async () => {
    const result = await processImage(await jpeg(3000, 1500, true), 'banner');
    expect(result).toMatchObject({ width: BANNER_MAX_WIDTH_PX, height: 592, contentType: 'image/jpeg' });
    const metadata = await sharp(result.bytes).metadata();
    expect(metadata.format).toBe('jpeg');
    expect(metadata.exif).toBeUndefined();
    expect(result.bytes.includes('secret-exif-marker')).toBe(false);
  });

  it('keeps a small banner at its size', async () => {
    const result = await processImage(await png(400, 200), 'banner');
    expect([result.width, result.height]).toEqual([400, 200]);
  });

  it('makes the card copy of a banner: 480 px wide at most, same format, no metadata; avatars get none', async () => {
    const wide = await processImage(await jpeg(3000, 1500, true), 'banner');
    const card = await sharp(wide.card).metadata();
    expect([card.format, card.width, card.height, card.exif]).toEqual([
      'jpeg',
      BANNER_CARD_WIDTH_PX,
      240,
      undefined,
    ]);
    expect(wide.card?.length).toBeLessThan(wide.bytes.length);
    // A transparent banner stays PNG, and so does its copy.
    const small = await processImage(await png(400, 200, true), 'banner');
    const smallCard = await sharp(small.card).metadata();
    expect([smallCard.format, smallCard.width]).toEqual(['png', 400]);
    expect((await processImage(await jpeg(300, 300), 'avatar')).card).toBeUndefined();
  });

  it('crops an avatar to 256x256 and keeps transparency as PNG', async () => {
    const opaque = await processImage(await jpeg(800, 300), 'avatar');
    expect([opaque.width, opaque.height, opaque.extension]).toEqual([AVATAR_SIZE_PX, AVATAR_SIZE_PX, 'jpg']);
    const transparent = await processImage(await png(50, 80, true), 'avatar');
    expect([transparent.width, transparent.height, transparent.contentType]).toEqual([256, 256, 'image/png']);
    expect((await sharp(transparent.bytes).metadata()).hasAlpha).toBe(true);
  });

  it('accepts a JPEG padded to exactly the byte limit', async () => {
    const image = await jpeg(64, 64);
    const padded = Buffer.concat([image, Buffer.alloc(MAX_UPLOAD_BYTES - image.length)]);
    expect((await processImage(padded, 'avatar')).width).toBe(256);
  });

  it.each([
    ['text', async () => Buffer.from('hello, this is not an image')],
    ['a GIF', async () => gif(20, 20)],
    [
      'a PNG signature followed by garbage',
      async () => Buffer.concat([(await png(4, 4)).subarray(0, 16), Buffer.alloc(200, 7)]),
    ],
    ['an empty buffer', async () => Buffer.alloc(0)],
  ])('refuses %s with 415', async (_name, make) => {
    expect((await rejection(processImage(await make(), 'banner'))).status).toBe(415);
  });

  it('refuses one byte over the limit with 413', async () => {
    const image = await jpeg(64, 64);
    const big = Buffer.concat([image, Buffer.alloc(MAX_UPLOAD_BYTES + 1 - image.length)]);
    expect((await rejection(processImage(big, 'banner'))).status).toBe(413);
  });

  it('refuses a pixel flood with 413 without decoding it', async () => {
    const started = performance.now();
    const error = await rejection(processImage(await pixelFloodPng(), 'banner'));
    expect(error.status).toBe(413);
    expect(error.messageKor).toMatch(/해상도/);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
