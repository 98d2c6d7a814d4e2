import fs from 'node:fs';
import path from 'node:path';

/** One chunk of Vite's build manifest (`.vite/manifest.json`), the fields used here. */
type ManifestChunk = { file: string; imports?: string[]; css?: string[]; isEntry?: boolean };
type Manifest = Record<string, ManifestChunk>;

/** The files a lazily loaded route module needs: its JavaScript chunks and its stylesheets (URL paths). */
export type RouteFiles = { scripts: string[]; styles: string[] };

const NO_FILES: RouteFiles = { scripts: [], styles: [] };

/**
 * Reads the web build's manifest, or null when the build has none (an older build: pages are then served
 * without route preloads).
 */
export function readManifest(webDist: string): Manifest | null {
  const file = path.join(webDist, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/**
 * The chunks and stylesheets a route module (e.g. `src/app/routes/home.tsx`) loads, without what the entry
 * (`index.html`'s script and its static imports) loads already: those the HTML names itself.
 */
export function routeFiles(manifest: Manifest | null, routeModule: string): RouteFiles {
  if (manifest === null || manifest[routeModule] === undefined) return NO_FILES;
  // Every chunk reachable from `start` through static imports, except those in `skip`.
  const reachable = (start: string, skip: ReadonlySet<string>): Set<string> => {
    const found = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (chunk === undefined || found.has(key) || skip.has(key)) return;
      found.add(key);
      for (const child of chunk.imports ?? []) visit(child);
    };
    visit(start);
    return found;
  };
  const entry = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isEntry) for (const found of reachable(key, entry)) entry.add(found);
  }
  const chunks = [...reachable(routeModule, entry)]
    .map((key) => manifest[key])
    .filter((chunk) => chunk !== undefined);
  return {
    scripts: chunks.map((chunk) => `/${chunk.file}`),
    styles: [...new Set(chunks.flatMap((chunk) => chunk.css ?? []))].map((file) => `/${file}`),
  };
}
