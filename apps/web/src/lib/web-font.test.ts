import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadWebFont, WEB_FONT_CACHED_KEY, webFontCached } from './web-font.ts';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

/** A promise with its resolve function, to hold a step of the loading. */
function gate() {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('the typeface', () => {
  it('waits on a first visit until the page has settled, then loads and remembers it', async () => {
    const settled = gate();
    const load = vi.fn(async () => undefined);
    const done = loadWebFont({ settled: () => settled.promise, load });
    await Promise.resolve();
    expect(load).not.toHaveBeenCalled();
    expect(webFontCached()).toBe(false);
    settled.open();
    await done;
    expect(load).toHaveBeenCalledOnce();
    expect(localStorage.getItem(WEB_FONT_CACHED_KEY)).toBe('1');
    expect(webFontCached()).toBe(true);
  });

  it('loads at once on a later visit (its files are in the HTTP cache)', async () => {
    localStorage.setItem(WEB_FONT_CACHED_KEY, '1');
    const settled = vi.fn(() => new Promise<void>(() => undefined));
    const load = vi.fn(async () => undefined);
    await loadWebFont({ settled, load });
    expect(settled).not.toHaveBeenCalled();
    expect(load).toHaveBeenCalledOnce();
  });

  it('treats blocked storage as a first visit and still loads', async () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    expect(webFontCached()).toBe(false);
    const load = vi.fn(async () => undefined);
    await loadWebFont({ settled: async () => undefined, load });
    expect(load).toHaveBeenCalledOnce();
  });
});
