import type { ComponentType } from 'react';
import { pageModule, PAGE_MODULES_DIR, type PageName } from '@sea/contract/page-modules';

/** What a route module exports: its page. */
type RouteModule = { Component: ComponentType };

/** Every route module, loaded lazily (each its own chunk); the keys are `./routes/<file>`. */
const modules = import.meta.glob<RouteModule>(['./routes/*.tsx', '!./routes/*.test.tsx']);

/**
 * The loader of a page's route module, found by the contract's name of it (`pageModule`), the name the API
 * server also finds the page's chunks by. Throws when the module is missing (a route file renamed).
 */
export function loadPage(name: PageName): () => Promise<RouteModule> {
  const file = pageModule(name);
  const load = modules[`./routes/${file.slice(PAGE_MODULES_DIR.length + 1)}`];
  if (load === undefined) throw new Error(`The page ${name} has no route module ${file}`);
  return load;
}
