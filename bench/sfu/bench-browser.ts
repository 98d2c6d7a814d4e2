import { chromium, type Browser } from 'playwright-core';
import { serveBundle } from '../../apps/media/test/chromium/bundle-site.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, FAKE_MEDIA_FLAGS } from '../../harness/chromium.ts';
import type { BrowserTimings } from './browser-student-entry.ts';

export type { BrowserTimings };

/** Debian's Chromium (a browser is never downloaded), serving a student page from loopback. */
export type BenchBrowser = {
  browser: Browser;
  /** One student joins in a fresh page (the web client's classes), is timed, and leaves. */
  measureStudent(mediaUrl: string, ticket: string): Promise<BrowserTimings>;
  close(): Promise<void>;
};

export async function launchBenchBrowser(): Promise<BenchBrowser> {
  const site = await serveBundle(new URL('./browser-student-entry.ts', import.meta.url));
  const siteUrl = site.url;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM_PATH,
    args: [
      ...CHROMIUM_FLAGS,
      ...FAKE_MEDIA_FLAGS,
      '--autoplay-policy=no-user-gesture-required',
      // Extra Chromium switches, e.g. its WebRTC log: `--enable-logging=stderr --vmodule=connection=1` (with
      // DEBUG=pw:browser to see it).
      ...(process.env.BENCH_CHROMIUM_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
  });
  return {
    browser,
    async measureStudent(mediaUrl, ticket) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        page.on('pageerror', (error) => console.error('browser student: page error', error.message));
        await page.goto(siteUrl);
        return await page.evaluate(
          ({ url, ticket }) =>
            (
              globalThis as never as { bench: { join(u: string, t: string): Promise<BrowserTimings> } }
            ).bench.join(url, ticket),
          { url: mediaUrl, ticket },
        );
      } finally {
        await context.close();
      }
    },
    async close() {
      await browser.close();
      site.close();
    },
  };
}
