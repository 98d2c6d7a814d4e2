import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFfmpeg, findHangulFont } from './find-tools.ts';

const npmFfmpeg = (() => {
  try {
    const manifest = createRequire(import.meta.url).resolve('@ffmpeg-installer/linux-x64/package.json');
    return path.join(path.dirname(manifest), 'ffmpeg');
  } catch {
    return null;
  }
})();

describe('findFfmpeg', () => {
  it('FFMPEG_PATH that is no ffmpeg finds none (and looks no further)', async () => {
    expect(await findFfmpeg(path.join(os.tmpdir(), 'no-such-ffmpeg'))).toBeNull();
    expect(await findFfmpeg('/bin/sh')).toBeNull();
  });

  it.skipIf(!npmFfmpeg)('the npm package’s ffmpeg runs here and has libx264 and AAC', async () => {
    expect(await findFfmpeg(npmFfmpeg)).toEqual({ path: npmFfmpeg, source: 'FFMPEG_PATH' });
  });

  it('finds an ffmpeg on this machine (the system’s first, else the npm package’s)', async () => {
    const found = await findFfmpeg(null);
    if (!found && process.env.CI !== 'true') return;
    expect(found?.source).toMatch(/^(system|npm)$/);
  });
});

describe('findHangulFont', () => {
  it('finds a font with Hangul where fonts-noto-cjk is installed (CI installs it)', async () => {
    const font = await findHangulFont();
    if (!font && process.env.CI !== 'true') return;
    expect(font).toMatch(/\.(ttc|ttf|otf)$/);
  });
});
