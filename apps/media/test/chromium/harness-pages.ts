import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, FAKE_MEDIA_FLAGS } from '../../../../harness/chromium.ts';
import { signTicket } from '../test-media-server.ts';

// The harness scripts' browser side (run-harness.ts, run-edge-harness.ts): Chromium with fake devices, pages of
// harness-entry.ts, calls into them and what they received.

/** An inbound stream of a page, as harness-entry.ts's `inbound()` reads it from WebRTC's stats. */
export type Inbound = {
  kind: string | null;
  framesDecoded: number;
  frameWidth: number;
  frameHeight: number;
  packetsReceived: number;
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Chromium (CHROMIUM_PATH, else Debian's) with fake camera, microphone and screen, playing without a gesture. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, ...FAKE_MEDIA_FLAGS, '--autoplay-policy=no-user-gesture-required'],
  });
}

/**
 * Opens the harness page at `siteUrl` in a context of its own for a user with `claims`. Tickets are
 * single-use: every (re)connection of the page asks for a fresh one (`freshTicket`), as the web app does. Page
 * errors go to stderr, and with `consoleErrors` its console's warnings and errors too.
 */
export async function openPage(
  browser: Browser,
  siteUrl: string,
  claims: Parameters<typeof signTicket>[0],
  { consoleErrors = false } = {},
): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.exposeFunction('freshTicket', () => signTicket(claims));
  page.on('pageerror', (error) => console.error('page error', error.message));
  if (consoleErrors) {
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') console.error('page:', message.text());
    });
  }
  await page.goto(siteUrl);
  return page;
}

/** Calls the page's `harness[fn](...args)`. */
export function call<T>(page: Page, fn: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    ({ fn, args }) =>
      (globalThis as never as { harness: Record<string, (...a: unknown[]) => Promise<T>> }).harness[fn]?.(
        ...args,
      ),
    { fn, args },
  ) as Promise<T>;
}

/** The page's inbound streams now. */
export function inbound(page: Page): Promise<Inbound[]> {
  return call<Inbound[]>(page, 'inbound');
}

/** What a student page received between two samples of its streams taken `seconds` apart. */
export function received(before: Inbound[], after: Inbound[], seconds: number) {
  const pick = (stats: Inbound[], kind: string) => stats.find((s) => s.kind === kind);
  const delta = (kind: string, field: 'framesDecoded' | 'packetsReceived') =>
    (pick(after, kind)?.[field] ?? 0) - (pick(before, kind)?.[field] ?? 0);
  return {
    webcamWidth: pick(after, 'webcamVideo')?.frameWidth ?? 0,
    webcamFps: delta('webcamVideo', 'framesDecoded') / seconds,
    screenWidth: pick(after, 'screenShareVideo')?.frameWidth ?? 0,
    screenFrames: delta('screenShareVideo', 'framesDecoded'),
    micPackets: delta('webcamAudio', 'packetsReceived'),
    systemAudioPackets: delta('screenShareAudio', 'packetsReceived'),
  };
}
