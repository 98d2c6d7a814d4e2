// The services' JavaScript: the API server and the media service each bundled (with the workspace packages) into
// its app's `dist/`, as `npm start` and the systemd units run them (issue 34, light servers). Run from the
// TypeScript sources, each service's process holds Node's type stripper (a WebAssembly compiler, about 17 MB)
// and every one of its source files as a module of its own; bundled, neither. Packages from node_modules stay
// outside the bundle, loaded as they are; a module the sources import lazily (`await import`) stays a file of
// its own, loaded when first used.
//
// Run: node scripts/build-services.ts   (`npm start` and `npm run build` run it)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Each service: its app folder and its entry files, one output file each in `dist/` (`service-entries.ts`). */
export const SERVICES = [
  { app: 'apps/server', entries: { main: 'src/main.ts' } },
  {
    app: 'apps/media',
    entries: { main: 'src/main.ts', 'forwarding-worker': 'src/workers/forwarding-worker.ts' },
  },
] as const;

/** A bare specifier (a package), not the workspace's own: loaded from node_modules at run time. */
const external = (id: string) =>
  !id.startsWith('.') && !path.isAbsolute(id) && !id.startsWith('@sea/') && !id.startsWith('\0');

/**
 * How long a file of an earlier build stays in `dist/`: a service started before a build (`npm run build` while it
 * runs, before its restart) still imports its own lazy chunks, by their names, when first used.
 */
const EARLIER_BUILD_KEPT_MS = 7 * 24 * 3600_000;

export async function buildServices(): Promise<void> {
  for (const { app, entries } of SERVICES) {
    const dir = path.join(root, app, 'dist');
    const { output } = await build({
      cwd: path.join(root, app),
      input: entries,
      platform: 'node',
      external,
      logLevel: 'warn',
      output: {
        dir,
        format: 'esm',
        entryFileNames: '[name].js',
        // Every chunk in `dist/` itself: a module's `import.meta.url` is then one folder below the app's, as
        // its source's is (`apps/server/src/server-folder.ts`).
        chunkFileNames: '[name]-[hash].js',
        // The comments are in the sources; a module's text is held in memory for as long as it runs.
        comments: false,
        sourcemap: true,
      },
    });
    const made = new Set(output.flatMap((file) => [file.fileName, `${file.fileName}.map`]));
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      if (!made.has(name) && Date.now() - fs.statSync(file).mtimeMs > EARLIER_BUILD_KEPT_MS) fs.rmSync(file);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServices();
