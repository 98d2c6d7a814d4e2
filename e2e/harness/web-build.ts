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

/**
 * The built web app for the journeys, in a git-ignored folder. Built once: later calls (other test files,
 * later runs) reuse it while no source is newer than the build. Another project running at the same time
 * (the deploy project's topology test) names its own `folder`, so two builds never write the same one.
 */
export function buildWebOnce(folder = 'web-dist'): string {
  const outDir = path.join(REPO_ROOT, 'artifacts/e2e', folder);
  const stampFile = path.join(outDir, STAMP);
  const sources = newestSource();
  if (fs.existsSync(stampFile) && Number(fs.readFileSync(stampFile, 'utf8')) >= sources) return outDir;
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
