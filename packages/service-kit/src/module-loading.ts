import module from 'node:module';

/**
 * Makes a service's start cheaper, before its modules load (its entry calls this, then imports the rest).
 *
 * - Node's compile cache (`module.enableCompileCache`, kept in the system's temporary folder or
 *   `NODE_COMPILE_CACHE`): a start after the first reuses V8's compiled code of the modules it loaded.
 * - `commonJs`: packages loaded from their CommonJS build although imported from ES modules. drizzle-orm's ES
 *   build is some 70 files that re-export each other in cycles (`export *`); Node 22 and 24 link that graph
 *   with a heap of ~165 MB and seconds of CPU (Node 20: 5 MB, 0.5 s), its CommonJS build with ~10 MB.
 *
 * Measured on the 2-core machine (busy, load 15-18): loading the API server's modules (`app.ts`) took 3.9 s of
 * CPU before, 1.8 s with both; the media service's 1.8 s, 1.0 s with the cache. Every test that starts a
 * service process saves that much. Idle resident memory hardly changes (bench/api/idle-memory.ts).
 *
 * Both change how modules are found and compiled; drizzle-orm's two builds are the same library.
 */
export function speedUpModuleLoading(options: { commonJs?: readonly string[] } = {}): void {
  module.enableCompileCache?.();
  const packages = options.commonJs ?? [];
  if (packages.length === 0) return;
  const ofPackage = (specifier: string) =>
    packages.some((name) => specifier === name || specifier.startsWith(`${name}/`));
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      if (!ofPackage(specifier)) return nextResolve(specifier, context);
      return nextResolve(specifier, { ...context, conditions: ['require', 'node', 'default'] });
    },
  });
}
