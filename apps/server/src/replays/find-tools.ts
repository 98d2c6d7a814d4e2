import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The ffmpeg the replays use, and where it came from. */
export type Ffmpeg = { path: string; source: 'FFMPEG_PATH' | 'system' | 'npm' };

/** The npm package that ships a Linux x64 ffmpeg (with libx264) inside it; an optional dependency. */
const NPM_FFMPEG = '@ffmpeg-installer/linux-x64';

/** Fonts with Hangul where Debian (fonts-noto-cjk, fonts-nanum) and other distributions put them. */
const HANGUL_FONTS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/nanum/NanumGothic.ttf',
];

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** True when this ffmpeg runs and has the encoders a replay needs (libx264, aac). */
async function canEncode(ffmpeg: string): Promise<boolean> {
  try {
    const { stdout } = await run(ffmpeg, ['-hide_banner', '-encoders'], { timeout: 10_000 });
    return /\blibx264\b/.test(stdout) && /^\s*A\S*\s+aac\b/m.test(stdout);
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && executable(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

let setpriv: string | null | undefined;

/**
 * util-linux's `setpriv`, which can start a program that the kernel kills when its parent dies
 * (`--pdeathsig`); null where there is none. Looked up once.
 */
export function parentDeathWrapper(): string | null {
  setpriv ??= onPath('setpriv');
  return setpriv;
}

function fromNpm(): string | null {
  try {
    const manifest = createRequire(import.meta.url).resolve(`${NPM_FFMPEG}/package.json`);
    return path.join(path.dirname(manifest), 'ffmpeg');
  } catch {
    // Not installed (another platform, or --omit=optional).
    return null;
  }
}

/**
 * The ffmpeg to use: FFMPEG_PATH when set (and only it), else the system's, else the npm package's; each only
 * if it runs and has libx264 and AAC. Null when there is none: recordings then wait raw.
 */
export async function findFfmpeg(configured: string | null): Promise<Ffmpeg | null> {
  const candidates: Ffmpeg[] = configured
    ? [{ path: configured, source: 'FFMPEG_PATH' }]
    : [
        ...[onPath('ffmpeg')].flatMap((p) => (p ? [{ path: p, source: 'system' as const }] : [])),
        ...[fromNpm()].flatMap((p) => (p ? [{ path: p, source: 'npm' as const }] : [])),
      ];
  for (const candidate of candidates) {
    if (executable(candidate.path) && (await canEncode(candidate.path))) return candidate;
  }
  return null;
}

/** A font file with Hangul for the teacher's name, or null (the black picture then shows no name). */
export async function findHangulFont(): Promise<string | null> {
  const known = HANGUL_FONTS.find((file) => fs.existsSync(file));
  if (known) return known;
  try {
    // fontconfig lists only fonts that cover Korean for `:lang=ko`.
    const { stdout } = await run('fc-list', [':lang=ko', 'file'], { timeout: 10_000 });
    const files = stdout.split('\n').map((line) => line.replace(/:\s*$/, '').trim());
    return files.find((file) => /\.(ttf|otf|ttc)$/i.test(file) && fs.existsSync(file)) ?? null;
  } catch {
    // No fontconfig: no name.
    return null;
  }
}
