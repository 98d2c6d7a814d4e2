import { fileURLToPath } from 'node:url';

/**
 * The API server's folder (`apps/server`), where its migrations are, and from which the repository's `data`
 * folder and the web app's build are found. Taken from this module's place, one folder below it, which holds
 * both run from the sources (`src/`) and from the bundle (`dist/`, `scripts/build-services.ts`): a module deeper
 * in `src/` must not resolve paths from its own place, which the bundle does not keep.
 */
export const SERVER_FOLDER = fileURLToPath(new URL('..', import.meta.url));
