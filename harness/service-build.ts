import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { SERVICE_ENTRIES } from '../scripts/service-entries.ts';
import { buildOnce, newestSource } from './build-once.ts';
import { REPO_ROOT } from './paths.ts';

/**
 * Builds the services' bundles (`scripts/build-services.ts`) for the tests that run the services as they are
 * deployed (the deploy tests), once: later calls reuse them while no source is newer.
 */
export function buildServicesOnce(): typeof SERVICE_ENTRIES {
  const sources = newestSource(
    ['apps/server/src', 'apps/media/src', 'packages/contract/src', 'packages/service-kit/src'].map((dir) =>
      path.join(REPO_ROOT, dir),
    ),
    [path.join(REPO_ROOT, 'scripts/build-services.ts')],
  );
  const files = {
    stamp: path.join(REPO_ROOT, 'artifacts/e2e/services-build.stamp'),
    lock: path.join(REPO_ROOT, 'artifacts/e2e/services-build.lock'),
    outputs: Object.values(SERVICE_ENTRIES).map((entry) => path.join(REPO_ROOT, entry)),
  };
  buildOnce(files, sources, () => {
    const script = path.join(REPO_ROOT, 'scripts/build-services.ts');
    const result = spawnSync(process.execPath, [script], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      timeout: 120_000,
    });
    if (result.status !== 0)
      throw new Error(`the services' build failed (${result.status ?? result.signal})`);
  });
  return SERVICE_ENTRIES;
}
