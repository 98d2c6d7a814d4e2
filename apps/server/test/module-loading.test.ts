import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));

/** Where `drizzle-orm` and one of its subpaths resolve from the server's folder, in a fresh Node process. */
function resolvedDrizzle(prepare: string): string[] {
  const script = `${prepare}
console.log(import.meta.resolve('drizzle-orm'));
console.log(import.meta.resolve('drizzle-orm/pg-core'));
console.log(import.meta.resolve('zod'));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: serverRoot,
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  return run.stdout.trim().split('\n');
}

describe('speedUpModuleLoading', () => {
  it("loads drizzle-orm's CommonJS build, and leaves other packages as they resolve", () => {
    const plain = resolvedDrizzle('');
    expect(plain[0]).toMatch(/\/drizzle-orm\/index\.js$/);

    const sped = resolvedDrizzle(
      "import { speedUpModuleLoading } from '@sea/service-kit/module-loading';\nspeedUpModuleLoading({ commonJs: ['drizzle-orm'] });",
    );
    expect(sped[0]).toMatch(/\/drizzle-orm\/index\.cjs$/);
    expect(sped[1]).toMatch(/\/drizzle-orm\/pg-core\/index\.cjs$/);
    expect(sped[2]).toBe(plain[2]);
  });
});
