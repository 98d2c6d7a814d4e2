import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserLiveServices } from './live-services.ts';

afterEach(() => vi.unstubAllGlobals());

describe('browserLiveServices', () => {
  it('refuses display capture as NotSupportedError where the browser has none (phones)', async () => {
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: vi.fn() } });
    await expect(browserLiveServices.getDisplayMedia({ video: true })).rejects.toMatchObject({
      name: 'NotSupportedError',
    });
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: undefined });
    await expect(browserLiveServices.getDisplayMedia({ video: true })).rejects.toMatchObject({
      name: 'NotSupportedError',
    });
  });

  it("passes display capture to the browser's own where it exists", async () => {
    const stream = { id: 'screen' };
    const getDisplayMedia = vi.fn(async () => stream);
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getDisplayMedia } });
    await expect(browserLiveServices.getDisplayMedia({ video: true, audio: true })).resolves.toBe(stream);
    expect(getDisplayMedia).toHaveBeenCalledWith({ video: true, audio: true });
  });
});
