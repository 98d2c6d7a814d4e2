import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths.ts';

const WEB = path.join(REPO_ROOT, 'apps/web');
const STAMP = 'e2e-build.stamp';

/** Newest modification time under the web app's sources (and the contract it imports). */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  walk(path.join(WEB, 'src'));
  walk(path.join(REPO_ROOT, 'packages/contract/src'));
  for (const file of ['index.html', 'vite.config.ts', 'precompress-plugin.ts', 'package.json']) {
    newest = Math.max(newest, fs.statSync(path.join(WEB, file)).mtimeMs);
  }
  return newest;
}

/** A build older than this holds no lock any more (its process died): the build's own limit, and a margin. */
const STALE_LOCK_MS = 200_000;

/** Sleeps the calling thread (a test file's own process): the build below is synchronous too. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `build` holding a lock folder next to `outDir`: journey files run two at a time, and two of them must
 * never build into the same folder at once (the second waits, then finds the first one's build fresh).
 */
function withLock<T>(outDir: string, build: () => T): T {
  const lock = `${outDir}.lock`;
  fs.mkdirSync(path.dirname(outDir), { recursive: true });
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
 * The built web app for the journeys, the live project and the deploy test, in a git-ignored folder. Built
 * once: later calls (other test files and projects, later runs) reuse it while no source is newer than the
 * build; a file that finds another one building waits for it.
 */
export function buildWebOnce(): string {
  const outDir = path.join(REPO_ROOT, 'artifacts/e2e/web-dist');
  const stampFile = path.join(outDir, STAMP);
  const sources = newestSource();
  const fresh = () => fs.existsSync(stampFile) && Number(fs.readFileSync(stampFile, 'utf8')) >= sources;
  if (fresh()) return outDir;
  return withLock(outDir, () => (fresh() ? outDir : build(outDir, stampFile, sources)));
}

function build(outDir: string, stampFile: string, sources: number): string {
  const result = spawnSync(
    process.execPath,
    [
      path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    // NODE_ENV=production: under Vitest it is 'test', which would build React's development runtime.
    { cwd: WEB, stdio: 'inherit', timeout: 170_000, env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (result.status !== 0) throw new Error(`web build failed (${result.status ?? result.signal})`);
  fs.writeFileSync(stampFile, String(sources));
  return outDir;
}
