import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Stroke } from '@sea/contract/board';
import { inkedPage, inkSvg } from './inked-page.ts';

const stroke = (fields: Partial<Stroke>): Stroke => ({
  material_id: 0,
  page: 1,
  stroke_id: 's',
  tool: 'pen',
  color: '#ff0000',
  width: 0.02,
  text: null,
  points: [
    [0.1, 0.5, 0.5],
    [0.9, 0.5, 0.5],
  ],
  done: true,
  by: 'u',
  ...fields,
});

async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}

describe('inkedPage', () => {
  it('draws the ink over the page, letterboxed in the frame', async () => {
    const page = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#0000ff' } })
      .png()
      .toBuffer();
    const frame = await inkedPage(page, [stroke({})], { width: 1280, height: 720 });
    expect(await sharp(frame).metadata()).toMatchObject({ width: 1280, height: 720 });
    // The page is 960 x 720 in the middle; the red line crosses it at mid-height.
    expect(await pixel(frame, 640, 360)).toEqual([255, 0, 0]);
    expect(await pixel(frame, 640, 100)).toEqual([0, 0, 255]);
    expect(await pixel(frame, 50, 360)).toEqual([255, 255, 255]);
  });

  it('draws a blank page white, shapes from the first point to the last, and escapes text', async () => {
    const box = stroke({
      tool: 'rect',
      color: '#00ff00',
      points: [
        [0.1, 0.1, 1],
        [0.5, 0.3, 1],
        [0.9, 0.9, 1],
      ],
    });
    const frame = await inkedPage(null, [box], { width: 640, height: 480 });
    // The 4:3 blank page fills the frame; the rectangle's top edge is at 48 px, its inside stays white.
    expect(await pixel(frame, 320, 48)).toEqual([0, 255, 0]);
    expect(await pixel(frame, 320, 240)).toEqual([255, 255, 255]);
    const svg = inkSvg([stroke({ tool: 'text', text: '<b>판서</b>', points: [[0.1, 0.1, 1]] })], {
      width: 100,
      height: 100,
    });
    expect(svg).toContain('&#60;b&#62;판서&#60;/b&#62;');
  });
});
