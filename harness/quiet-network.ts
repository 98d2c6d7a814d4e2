/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
import type { Page, Request } from 'playwright-core';

/** The requests each watched page has in flight, but its event streams, which stay open as long as it does. */
const inFlight = new WeakMap<Page, Set<Request>>();

/**
 * Starts counting `page`'s requests in flight (once per page; the journeys' pages count from their first
 * request, see chromium.ts). A notice stream (`accept: text/event-stream`) never ends, so it is not counted.
 */
export function watchRequests(page: Page): Set<Request> {
  const known = inFlight.get(page);
  if (known) return known;
  const open = new Set<Request>();
  page.on('request', (request) => {
    if (!request.headers()['accept']?.includes('text/event-stream')) open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
  inFlight.set(page, open);
  return open;
}

/**
 * Waits until `page` has laid out and painted its current size with its fonts, and no request has been in
 * flight for `quietMs`, or `maxMs` has passed (a screen shown while a request is held on purpose). Playwright's
 * 'networkidle' wants 500 ms without a connection, which a logged-in page with its notice stream never has.
 */
export async function networkQuiet(page: Page, { quietMs = 150, maxMs = 1_000 } = {}): Promise<void> {
  const open = watchRequests(page);
  const deadline = Date.now() + maxMs;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (open.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await page.evaluate(
    () =>
      document.fonts.ready.then(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      ) as Promise<unknown>,
  );
}
