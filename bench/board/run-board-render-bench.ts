// Board render benchmark: frames per second of the live board's renderer in Debian's Chromium, with the CPU
// slowed four times (DevTools' Emulation.setCPUThrottlingRate), on a phone-sized page (400 px screen, pixel
// ratio 2) holding 5 000 points while a received stroke grows every frame. Also the same page redrawn whole
// every frame (no cache of finished strokes), to show what the cache buys. Prints its figures; not a test.
// Run: npm exec -- node bench/board/run-board-render-bench.ts [--seconds 8]
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../harness/chromium.ts';

const SECONDS = Number(parseArgs({ options: { seconds: { type: 'string', default: '8' } } }).values.seconds);
const THROTTLING = 4;

type Result = { frames: number; seconds: number; fps: number; points: number };

const bundle = await build({
  entryPoints: [path.join(import.meta.dirname, 'render-page.ts')],
  bundle: true,
  format: 'iife',
  write: false,
  minify: true,
  logLevel: 'silent',
});
const script = bundle.outputFiles[0]?.text ?? '';

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
try {
  const context = await browser.newContext({
    viewport: { width: 400, height: 860 },
    deviceScaleFactor: 2,
    isMobile: true,
  });
  const page = await context.newPage();
  await page.setContent('<!doctype html><html><body style="margin:0"></body></html>');
  await page.addScriptTag({ content: script });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING });
  const load = os.loadavg().map((value) => value.toFixed(2));
  console.log(`load average before: ${load.join(' ')} (${os.cpus().length} cores)`);
  for (const cached of [true, false]) {
    const result = await page.evaluate(
      ([seconds, withCache]) =>
        (window as unknown as { boardBench: (s: number, c: boolean) => Promise<Result> }).boardBench(
          seconds,
          withCache,
        ),
      [SECONDS, cached] as const,
    );
    console.log(
      `${cached ? 'cached finished strokes' : 'whole page every frame'}: ${result.fps.toFixed(1)} fps ` +
        `(${result.frames} frames in ${result.seconds.toFixed(1)} s, ${result.points} points, CPU x${THROTTLING})`,
    );
  }
  console.log(
    `load average after: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await browser.close();
}
