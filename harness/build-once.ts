import fs from 'node:fs';
import path from 'node:path';

/** A build older than this holds no lock any more (its process died): a build's own limit, and a margin. */
const STALE_LOCK_MS = 200_000;

/** Newest modification time of the files under `dirs` (not in `node_modules` or `dist`) and of `files`. */
export function newestSource(dirs: readonly string[], files: readonly string[] = []): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const dir of dirs) walk(dir);
  for (const file of files) newest = Math.max(newest, fs.statSync(file).mtimeMs);
  return newest;
}

/** Sleeps the calling thread (a test file's own process): the builds are synchronous too. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `build` holding a lock folder `lock`: test files run several at a time, and two of them must never
 * build into the same folder at once (the second waits, then finds the first one's build fresh).
 */
function withLock<T>(lock: string, build: () => T): T {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs > STALE_LOCK_MS)
          fs.rmSync(lock, { recursive: true, force: true });
      } catch {
        // Released meanwhile: try again.
      }
      sleepSync(250);
    }
  }
  try {
    return build();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Builds once for the whole test run and the runs after it: `build` runs (under the lock folder `lock`) only when
 * the file `stamp` is missing or older than `sources` (the newest source's time), or one of `outputs` is missing;
 * the stamp is written after it. A file that finds another one building waits for it, then finds its build
 * fresh. The lock must be outside what `build` empties.
 */
export function buildOnce(
  files: { stamp: string; lock: string; outputs?: readonly string[] },
  sources: number,
  build: () => void,
): void {
  const { stamp, lock, outputs = [] } = files;
  const fresh = () =>
    fs.existsSync(stamp) &&
    Number(fs.readFileSync(stamp, 'utf8')) >= sources &&
    outputs.every((file) => fs.existsSync(file));
  if (fresh()) return;
  withLock(lock, () => {
    if (fresh()) return;
    build();
    fs.mkdirSync(path.dirname(stamp), { recursive: true });
    fs.writeFileSync(stamp, String(sources));
  });
}
