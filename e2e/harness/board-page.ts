/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
import type { Page } from 'playwright-core';

/** Painted pixels of a page's ink canvas (`key`: `materialId:page`), read from the canvas itself. */
export function inkPixels(page: Page, key: string): Promise<number> {
  return page.evaluate((pageKey) => {
    const canvas = document.querySelector<HTMLCanvasElement>(`canvas[data-page="${pageKey}"]`);
    const context = canvas?.getContext('2d');
    if (!canvas || !context || canvas.width === 0) return -1;
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let painted = 0;
    for (let index = 3; index < data.length; index += 4) if ((data[index] ?? 0) > 0) painted += 1;
    return painted;
  }, key);
}

/** The page on the stage (`materialId:page`), with its picture loaded when it has one. */
export function shownPage(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const shown = document.querySelector<HTMLElement>('[data-board-page]');
    const image = shown?.querySelector('img');
    if (!shown || (image && !(image.complete && image.naturalWidth > 0))) return null;
    return shown.dataset.boardPage ?? null;
  });
}

/** Draws a stroke across the stage's canvas with the mouse, from and to fractions of the page. */
export async function drawOn(page: Page, from: [number, number], to: [number, number]): Promise<void> {
  const box = await page.locator('canvas[aria-label="판서하는 곳"]').boundingBox();
  if (!box) throw new Error('no canvas to draw on');
  const at = (x: number, y: number) => [box.x + x * box.width, box.y + y * box.height] as const;
  await page.mouse.move(...at(...from));
  await page.mouse.down();
  for (let step = 1; step <= 12; step += 1) {
    const t = step / 12;
    await page.mouse.move(...at(from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t));
  }
  await page.mouse.up();
}
