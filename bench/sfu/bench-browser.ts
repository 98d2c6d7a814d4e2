import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, FAKE_MEDIA_FLAGS } from '../../e2e/harness/chromium.ts';
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
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./browser-student-entry.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const site = http.createServer((request, response) => {
    if (request.url === '/student.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    } else {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script src="/student.js"></script>');
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, ...FAKE_MEDIA_FLAGS, '--autoplay-policy=no-user-gesture-required'],
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
