/** Set once the typeface has been loaded in this browser: its files are then in the HTTP cache (immutable). */
export const WEB_FONT_CACHED_KEY = 'sea-web-font';

/** How long each wait of a first visit may take before the typeface is loaded anyway. */
const SETTLE_TIMEOUT_MS = 5_000;
/** A page whose largest paint has not changed for this long has rendered its content. */
const PAINT_QUIET_MS = 1_000;

/** Loads the typeface's stylesheet (the browser then fetches the subsets the page's text needs). */
function importFontStyles(): Promise<unknown> {
  return import('../styles/fonts.css');
}

function timeout(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function windowLoaded(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

/**
 * Resolves once the page's largest contentful paint has stayed the same for `quietMs`: the app has rendered its
 * content (each new, larger paint starts the wait again).
 */
function paintsSettled(quietMs: number): Promise<void> {
  if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) return timeout(quietMs);
  return new Promise((resolve) => {
    let timer = setTimeout(done, quietMs);
    const observer = new PerformanceObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
    function done() {
      observer.disconnect();
      resolve();
    }
  });
}

/** Resolves once every image the page has started loading is complete (lazy ones that have not started aside). */
function imagesLoaded(): Promise<void> {
  const pending = [...document.images].filter((image) => !image.complete && image.loading !== 'lazy');
  return Promise.all(pending.map((image) => image.decode().catch(() => undefined))).then(() => undefined);
}

function idle(): Promise<void> {
  if (typeof requestIdleCallback === 'undefined') return timeout(50);
  return new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 1_000 }));
}

/**
 * A first visit's moment for the typeface: after the page loaded, its largest paint stopped changing for a
 * second, its images are in, and the browser is idle. Each wait is bounded, so the typeface always comes.
 */
export async function pageSettled(): Promise<void> {
  const bounded = (wait: Promise<void>) => Promise.race([wait, timeout(SETTLE_TIMEOUT_MS)]);
  await bounded(windowLoaded());
  await bounded(paintsSettled(PAINT_QUIET_MS));
  await bounded(imagesLoaded());
  await idle();
}

function readCachedFlag(): boolean {
  try {
    return localStorage.getItem(WEB_FONT_CACHED_KEY) === '1';
  } catch {
    // Storage may be blocked (privacy settings): treat every visit as a first one.
    return false;
  }
}

/**
 * Loads the app's typeface (Pretendard, about 300 KB of Korean subsets on a catalogue page). On a first visit
 * it would compete for the network with the page's own code, answers and banners, so it comes once the page
 * has settled (text shows in the system's Korean font until then, as `font-display: swap` would show it);
 * on later visits its files are in the HTTP cache and it is loaded at once. Resolves when it is applied.
 */
export async function loadWebFont(
  options: { cached?: boolean; settled?: () => Promise<void>; load?: () => Promise<unknown> } = {},
): Promise<void> {
  const { cached = readCachedFlag(), settled = pageSettled, load = importFontStyles } = options;
  if (!cached) await settled();
  await load();
  try {
    localStorage.setItem(WEB_FONT_CACHED_KEY, '1');
  } catch {
    // Storage blocked: the next visit waits again, nothing else changes.
  }
}

/** Whether this browser has loaded the typeface before (then `loadWebFont` does not wait). */
export function webFontCached(): boolean {
  return readCachedFlag();
}
