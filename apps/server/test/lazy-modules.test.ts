import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const APP = fileURLToPath(new URL('../src/app.ts', import.meta.url));
const MODULE_LOADING = fileURLToPath(
  new URL('../../../packages/service-kit/src/module-loading.ts', import.meta.url),
);

// What an idle server holds (issue 34, light servers): ioredis (REDIS_URL only) and sharp (images only) are
// loaded at their first use, through load-redis.ts and load-sharp.ts. A module that imports either as a value
// again would load it with the server's modules; this imports them as main.ts does, in a fresh process.
it('loads the server’s modules without ioredis and sharp', () => {
  const script = `
    import { createRequire } from 'node:module';
    const { speedUpModuleLoading } = await import(${JSON.stringify(MODULE_LOADING)});
    speedUpModuleLoading({ commonJs: ['drizzle-orm'] });
    await import(${JSON.stringify(APP)});
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    const has = (name) => loaded.some((file) => file.includes('/node_modules/' + name + '/'));
    console.log(JSON.stringify({ fastify: has('fastify'), ioredis: has('ioredis'), sharp: has('sharp') }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  // fastify shows that the list is the server's modules; the other two must not be among them.
  expect(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}')).toEqual({
    fastify: true,
    ioredis: false,
    sharp: false,
  });
}, 90_000);
