import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildOnce, newestSource } from './build-once.ts';
import { REPO_ROOT } from './paths.ts';

const WEB = path.join(REPO_ROOT, 'apps/web');

/**
 * The built web app for the journeys, the live project and the deploy test, in a git-ignored folder. Built
 * once: later calls (other test files and projects, later runs) reuse it while no source is newer than the
 * build; a file that finds another one building waits for it.
 */
export function buildWebOnce(): string {
  const outDir = path.join(REPO_ROOT, 'artifacts/e2e/web-dist');
  const sources = newestSource(
    [path.join(WEB, 'src'), path.join(REPO_ROOT, 'packages/contract/src')],
    ['index.html', 'vite.config.ts', 'precompress-plugin.ts', 'package.json'].map((file) =>
      path.join(WEB, file),
    ),
  );
  const files = { stamp: path.join(outDir, 'e2e-build.stamp'), lock: `${outDir}.lock` };
  buildOnce(files, sources, () => build(outDir));
  return outDir;
}

function build(outDir: string): void {
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
}
