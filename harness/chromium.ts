import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { watchRequests } from './quiet-network.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the e2e files' shared Chromium listens (loopback), when Chromium is here. */
    chromiumEndpoint: string | undefined;
  }
}

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

/** What every journey's browser context is: a Korean reader in Seoul on a desktop window. */
const CONTEXT_OPTIONS = {
  locale: 'ko-KR',
  timezoneId: 'Asia/Seoul',
  viewport: { width: 1280, height: 900 },
} as const;

let shared: Promise<Browser> | undefined;

/**
 * The Chromium that the e2e project's global setup runs for all its files (`shared-chromium.ts`), when this
 * process is one of them; undefined elsewhere (benchmarks, the live journeys' own processes).
 */
async function sharedChromium(): Promise<Browser | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  const endpoint = inject('chromiumEndpoint');
  if (!endpoint) return undefined;
  shared ??= chromium.connect(endpoint);
  return shared;
}

/** `context` as a journey's browser, its pages' uncaught errors printed and their requests counted. */
function journeyBrowser(context: BrowserContext, close: () => Promise<void>): JourneyBrowser {
  return {
    context,
    newPage: async () => {
      const page = await context.newPage();
      page.on('pageerror', (error) => console.error('[browser]', error.message));
      watchRequests(page);
      return page;
    },
    close,
  };
}

/**
 * A browser of its own for one person of a journey: a fresh context (own cookies, storage and cache) in the
 * Chromium the e2e project shares between its files, or, with `extraFlags` or outside that project, a fresh
 * Chromium with its own profile folder, which `close()` removes.
 */
export async function launchChromium(extraFlags: string[] = []): Promise<JourneyBrowser> {
  const browser = extraFlags.length === 0 ? await sharedChromium() : undefined;
  if (browser) {
    const context = await browser.newContext(CONTEXT_OPTIONS);
    return journeyBrowser(context, () => context.close());
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, ...extraFlags],
    headless: true,
    ...CONTEXT_OPTIONS,
  });
  return journeyBrowser(context, async () => {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  });
}
