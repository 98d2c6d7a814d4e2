import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';

/** Debian's Chromium; a browser is never downloaded. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags every browser of the journeys gets (a closed network, no background services). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether the browser journeys can run. Without Chromium they are skipped with a loud message on a
 * developer's machine, and fail when CI=true.
 */
export function chromiumAvailable(): boolean {
  if (fs.existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true')
    throw new Error(`CI=true but ${CHROMIUM_PATH} is missing: install Debian's chromium`);
  console.warn(
    `\n!!! SKIPPING browser journeys: ${CHROMIUM_PATH} not found (apt-get install chromium) !!!\n`,
  );
  return false;
}

/** Fake camera, microphone and screen without prompts, and WebRTC over loopback (live-media journeys). */
export const FAKE_MEDIA_FLAGS = [
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--disable-renderer-backgrounding',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
];

/** A browser of the journeys: its one profile (context), a way to open pages, and `close()`. */
export type JourneyBrowser = {
  context: BrowserContext;
  /** A new tab whose uncaught errors are printed (a page error is worth seeing next to a failed step). */
  newPage: () => Promise<Page>;
  close: () => Promise<void>;
};

/** A fresh Chromium with its own profile folder (and `extraFlags`); `close()` removes the folder. */
export async function launchChromium(extraFlags: string[] = []): Promise<JourneyBrowser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, ...extraFlags],
    headless: true,
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    newPage: async () => {
      const page = await context.newPage();
      page.on('pageerror', (error) => console.error('[browser]', error.message));
      return page;
    },
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
