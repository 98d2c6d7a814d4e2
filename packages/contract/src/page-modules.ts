import type { PAGES } from './paths.ts';

/** A page of the web app, by its name in {@link PAGES}. */
export type PageName = keyof typeof PAGES;

/** Where the web app keeps its route modules, relative to the web app's folder (as Vite's manifest names them). */
export const PAGE_MODULES_DIR = 'src/app/routes';

/**
 * The web app's lazily loaded module of a page: `src/app/routes/<page name in kebab case>.tsx` (`liveList` →
 * `src/app/routes/live-list.tsx`). The web app finds each page's module by this name, and the API server finds
 * a page's chunks in the build's manifest (keyed by source path) by it to preload them with the page's HTML.
 */
export function pageModule(name: PageName): string {
  return `${PAGE_MODULES_DIR}/${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}.tsx`;
}
