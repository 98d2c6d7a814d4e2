import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../harness/paths.ts';
import { buildServicesOnce } from '../harness/service-build.ts';
import { SERVICES } from './build-services.ts';

/** The module specifiers a bundle file imports: statically only, or lazily (`import("…")`) too. */
function specifiers(code: string, lazily = true): string[] {
  const pattern = lazily ? /\b(?:from|import)\s*\(?\s*"([^"]+)"/gu : /\bfrom\s*"([^"]+)"/gu;
  return [...new Set([...code.matchAll(pattern)].map((match) => match[1] ?? ''))];
}

/** The files a bundle's `main.js` loads at its start (statically, and the service it imports), and their packages. */
function atStart(dir: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
  const walk = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of specifiers(read(file), false)) {
      if (specifier.startsWith('./')) walk(specifier.slice(2));
      else packages.add(specifier);
    }
  };
  walk('main.js');
  // The entry imports its service (`await import('./serve.ts')`) once module loading is set up.
  for (const specifier of specifiers(read('main.js')))
    if (specifier.startsWith('./')) walk(specifier.slice(2));
  return { files, packages };
}

describe("the services' bundles", () => {
  // npm start, the systemd units and the deploy tests run them (start.test.ts and deploy/ run them).
  it('hold all of the workspace, import packages and their own files only, and keep lazy modules lazy', () => {
    buildServicesOnce();
    for (const { app, entries } of SERVICES) {
      const dir = path.join(REPO_ROOT, app, 'dist');
      const files = fs.readdirSync(dir).filter((name) => name.endsWith('.js'));
      for (const entry of Object.keys(entries)) expect(files).toContain(`${entry}.js`);
      for (const file of files) {
        for (const specifier of specifiers(fs.readFileSync(path.join(dir, file), 'utf8'))) {
          if (specifier.startsWith('./')) {
            // A chunk of the same folder (`import.meta.url` is one folder below the app's: server-folder.ts).
            expect(fs.existsSync(path.join(dir, specifier)), `${file} imports ${specifier}`).toBe(true);
            expect(specifier).toMatch(/^\.\/[^/]+\.js$/u);
          } else {
            // No TypeScript, no workspace package: a package from node_modules or Node's own.
            expect(specifier, `${file} imports ${specifier}`).not.toMatch(/^(@sea\/|\.|\/)|\.ts$/u);
            const name = specifier.replace(/^node:/u, '');
            if (specifier.startsWith('node:')) expect(builtinModules).toContain(name.split('/')[0]);
          }
        }
      }
    }
    // What the services load only when first used stays out of what they load at their start: the entry, the
    // service it imports (`serve.ts`'s chunk) and all they import statically.
    const lazy = {
      'apps/server': ['sharp', 'file-type', '@aws-sdk/client-s3'],
      'apps/media': ['werift', 'socket.io-client', '@aws-sdk/client-s3'],
    };
    for (const [app, packages] of Object.entries(lazy)) {
      const loaded = atStart(path.join(REPO_ROOT, app, 'dist'));
      expect(loaded.packages.size).toBeGreaterThan(3);
      for (const name of packages) expect([...loaded.packages], `${app} at its start`).not.toContain(name);
    }
    expect([...atStart(path.join(REPO_ROOT, 'apps/media/dist')).files].join()).not.toMatch(/room-code/u);
  });
});
